import type { ExecutionContext } from '@nestjs/common';

/** Controller class → handler → what a guard worked out from their metadata. */
type RouteFacts<T> = WeakMap<object, WeakMap<object, T>>;

/**
 * What a guard reads from a route's decorators, worked out once per route instead of on every request: decorators are
 * applied when the controller class is defined and never change afterwards. Keyed by class and handler, since a
 * handler inherited by two controllers can carry different class-level metadata in each.
 */
export function routeFacts<T>(read: (handler: object, controller: object) => T): (context: ExecutionContext) => T {
  const facts: RouteFacts<T> = new WeakMap();
  return (context) => {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = facts.get(controller);
    if (!byHandler) facts.set(controller, (byHandler = new WeakMap()));
    if (byHandler.has(handler)) return byHandler.get(handler) as T;
    const value = read(handler, controller);
    byHandler.set(handler, value);
    return value;
  };
}
