import type { DataSource } from 'typeorm';
import type { F24Settings } from '../../config/config.js';
import type { FileStorage } from './file-storage.port.js';
import { DatabaseFileStorage } from './drivers/database.driver.js';
import { DiskFileStorage } from './drivers/disk.driver.js';

/** The driver F24_STORAGE names; `object` is refused at start until an object store's driver is written. */
export function fileStorageFactory(settings: F24Settings, db: DataSource): FileStorage {
  switch (settings.storage) {
    case 'database':
      return new DatabaseFileStorage(db);
    case 'disk':
      return new DiskFileStorage(settings.storageDir);
    case 'object':
      throw new Error('F24_STORAGE=object: no object store driver is configured in this release; use database or disk.');
  }
}
