import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { F24Controller } from './f24.controller.js';
import { F24Repository } from './f24.repository.js';
import { F24Service } from './f24.service.js';
import { fileStorageFactory } from './storage/file-storage.factory.js';
import { FILE_STORAGE } from './storage/file-storage.port.js';

/** The file storage port, bound to the driver F24_STORAGE names (the API and the worker both use it). */
export const FILE_STORAGE_PROVIDER = {
  provide: FILE_STORAGE,
  inject: [APP_CONFIG, getDataSourceToken()],
  useFactory: (config: AppConfig, db: DataSource) => fileStorageFactory(config.f24, db),
};

/** The API's side of F24 forms: upload, state, file. */
@Module({
  controllers: [F24Controller],
  providers: [F24Service, F24Repository, FILE_STORAGE_PROVIDER],
})
export class F24Module {}
