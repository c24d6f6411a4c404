/**
 * Where uploaded files are kept: the port. The F24 service stores each file once under a key of its own choosing and
 * reads it back (the worker, to read it; the API, to hand it out again). Drivers: PostgreSQL (`stored_files`, the
 * default: nothing else to run), a folder on disk; an object store (S3 and the like) is a configuration point
 * (F24_STORAGE=object) with no driver yet. Chosen once per process by `fileStorageFactory`.
 */
export interface FileStorage {
  /** Stores `content` under `key`; storing the same key again keeps the first (keys name their content). */
  put(key: string, content: Buffer, mediaType: string): Promise<void>;
  /** The stored content, or null when the key holds nothing. */
  get(key: string): Promise<{ content: Buffer; mediaType: string } | null>;
}

/** The injection token of the FileStorage port. */
export const FILE_STORAGE = Symbol('FileStorage');
