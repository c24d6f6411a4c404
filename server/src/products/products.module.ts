import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProductCatalogue } from '../invoices/product-catalogue.js';
import { InvoiceProductCatalogue } from './invoice-catalogue.js';
import { Product } from './product.entity.js';
import { ProductsController } from './products.controller.js';
import { ProductsRepository } from './products.repository.js';
import { ProductsService } from './products.service.js';

/**
 * Global for the one port it provides, the ProductCatalogue invoices read: invoices/ stands below products/ and
 * imports nothing of it.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Product])],
  controllers: [ProductsController],
  providers: [ProductsService, ProductsRepository, { provide: ProductCatalogue, useClass: InvoiceProductCatalogue }],
  exports: [ProductCatalogue],
})
export class ProductsModule {}
