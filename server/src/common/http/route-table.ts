/**
 * The methods each route path answers, recorded as routes are registered, so that a request for an existing path with
 * another method is told 405 and what is allowed, rather than 404.
 */
export class RouteTable {
  private readonly routes: Array<{ pattern: RegExp; method: string }> = [];

  add(method: string | string[], url: string): void {
    // `:name` segments match any one segment; the rest of the path is literal.
    const pattern = new RegExp(
      `^${url
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    );
    for (const m of [method].flat()) this.routes.push({ pattern, method: m.toUpperCase() });
  }

  /** The methods the path answers to, sorted; empty when no route has this path. */
  allowedMethods(path: string): string[] {
    const methods = new Set(this.routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
    return [...methods].sort();
  }
}
