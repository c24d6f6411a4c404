import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { FileStorage } from '../file-storage.port.js';

/**
 * Files in a folder (F24_STORAGE_DIR), one file per key and its media type beside it. Written to a temporary name
 * then renamed, so a reader never sees half a file. Keys are the service's own (`f24/<sha256>`), never a client's.
 */
export class DiskFileStorage implements FileStorage {
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private path(key: string): string {
    if (!/^[a-z0-9][a-z0-9/-]*$/.test(key) || key.includes('..')) throw new Error(`not a storage key: ${key}`);
    return join(this.root, key);
  }

  async put(key: string, content: Buffer, mediaType: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, content);
    await writeFile(`${path}.type`, mediaType);
    await rename(temporary, path);
  }

  async get(key: string): Promise<{ content: Buffer; mediaType: string } | null> {
    const path = this.path(key);
    try {
      const [content, mediaType] = await Promise.all([readFile(path), readFile(`${path}.type`, 'utf8')]);
      return { content, mediaType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
}
