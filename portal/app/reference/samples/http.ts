import type { SampleRequest } from './request';

export function httpSample(request: SampleRequest): string {
  const url = new URL(request.url);
  const headers = [`Host: ${url.host}`, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  if (request.body !== undefined) headers.push(`Content-Length: ${new TextEncoder().encode(request.body).length}`);
  const head = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, ...headers].join('\n');
  return request.body === undefined ? head : `${head}\n\n${request.body}`;
}
