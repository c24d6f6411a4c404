import { Module } from '@nestjs/common';
import { CategoriesController } from './categories.controller.js';
import { CategoriesRepository } from './categories.repository.js';
import { CategoriesService } from './categories.service.js';
import { SubcategoriesController } from './subcategories.controller.js';

@Module({
  controllers: [CategoriesController, SubcategoriesController],
  providers: [CategoriesService, CategoriesRepository],
})
export class CategoriesModule {}
