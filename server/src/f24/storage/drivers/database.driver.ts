import type { DataSource } from 'typeorm';
import type { FileStorage } from '../file-storage.port.js';

/** Files in PostgreSQL (`stored_files`): the development default, backed up with everything else. */
export class DatabaseFileStorage implements FileStorage {
  constructor(private readonly db: DataSource) {}

  async put(key: string, content: Buffer, mediaType: string): Promise<void> {
    await this.db.query('INSERT INTO stored_files (key, media_type, content) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [key, mediaType, content]);
  }

  async get(key: string): Promise<{ content: Buffer; mediaType: string } | null> {
    const [row]: Array<{ content: Buffer; media_type: string }> = await this.db.query('SELECT content, media_type FROM stored_files WHERE key = $1', [key]);
    return row ? { content: row.content, mediaType: row.media_type } : null;
  }
}
