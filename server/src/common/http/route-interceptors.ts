import { type INestApplication, type NestInterceptor, RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';

/**
 * Binds `interceptor` to every route of `method`, as @UseInterceptors on each of those handlers would, instead of
 * globally. A global interceptor puts every request of every route through Nest's observable chain (rxjs, async
 * scopes), a cost of its own on each read even when the interceptor lets it pass untouched. Must run after
 * NestFactory.create and before app.init(), which builds each route's chain from this metadata.
 */
export function interceptRoutes(app: INestApplication, method: RequestMethod, interceptor: NestInterceptor): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      const prototype = (metatype as { prototype?: object } | null)?.prototype;
      if (!prototype) continue;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) !== method) continue;
        const bound = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
        if (!bound.includes(interceptor)) Reflect.defineMetadata(INTERCEPTORS_METADATA, [interceptor, ...bound], handler);
      }
    }
  }
}
