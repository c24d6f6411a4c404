import { DataSource } from 'typeorm';
import { Injectable } from '@nestjs/common';
import { GenerateSql } from '../../common/database/generate-sql.js';

/** The SQL of `stored_files`, the database driver's table: a file by its key, written once. */
@Injectable()
export class StoredFilesRepository {
  constructor(private readonly db: DataSource) {}

  @GenerateSql({ params: ['f24/example', Buffer.from('%PDF-1.7'), 'application/pdf'] })
  async put(key: string, content: Buffer, mediaType: string): Promise<void> {
    await this.db.query('INSERT INTO stored_files (key, media_type, content) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [key, mediaType, content]);
  }

  @GenerateSql({ params: ['f24/example'] })
  async get(key: string): Promise<{ content: Buffer; mediaType: string } | null> {
    const [row]: Array<{ content: Buffer; media_type: string }> = await this.db.query('SELECT content, media_type FROM stored_files WHERE key = $1', [key]);
    return row ? { content: row.content, mediaType: row.media_type } : null;
  }
}
