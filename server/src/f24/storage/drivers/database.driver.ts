import type { DataSource } from 'typeorm';
import type { FileStorage } from '../file-storage.port.js';
import { StoredFilesRepository } from '../stored-files.repository.js';

/** Files in PostgreSQL (`stored_files`): the development default, backed up with everything else. */
export class DatabaseFileStorage implements FileStorage {
  private readonly files: StoredFilesRepository;

  constructor(db: DataSource) {
    this.files = new StoredFilesRepository(db);
  }

  put(key: string, content: Buffer, mediaType: string): Promise<void> {
    return this.files.put(key, content, mediaType);
  }

  get(key: string): Promise<{ content: Buffer; mediaType: string } | null> {
    return this.files.get(key);
  }
}
