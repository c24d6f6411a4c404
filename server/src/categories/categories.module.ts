import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Category } from './category.entity.js';
import { CategoriesController } from './categories.controller.js';
import { CategoriesRepository } from './categories.repository.js';
import { CategoriesService } from './categories.service.js';
import { SubcategoriesController } from './subcategories.controller.js';

@Module({
  imports: [TypeOrmModule.forFeature([Category])],
  controllers: [CategoriesController, SubcategoriesController],
  providers: [CategoriesService, CategoriesRepository],
  // Documents and transactions are classified with the company's categories (classification.ts).
  exports: [CategoriesRepository],
})
export class CategoriesModule {}
