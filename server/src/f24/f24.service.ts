import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { F24_MEDIA_TYPES, inspectF24File } from './f24-file.js';
import type { F24AcceptedDto, F24RequestDto } from './f24.dto.js';
import { presentF24Request, type F24RequestRow } from './f24.presenter.js';
import { F24Repository } from './f24.repository.js';
import { FILE_STORAGE, type FileStorage } from './storage/file-storage.port.js';

export interface F24Upload {
  bytes: Buffer;
  fileName: string | null;
  label: string | null;
}

const REFUSALS = {
  empty: () => ApiError.of('empty_file', 'The file is empty: send the F24 as a PDF (or a PNG or JPEG scan of it).'),
  not_a_pdf: () => ApiError.of('not_a_pdf', 'The file is not a PDF, a PNG or a JPEG (its first bytes say so, whatever its Content-Type).'),
  encrypted: () => ApiError.of('encrypted_pdf', 'The PDF is encrypted: its text and images cannot be read. Send it without a password or restrictions.'),
} as const;

/**
 * The API's side of F24 forms: a file is checked from its bytes (size, kind, encryption), stored once through the
 * FileStorage port and recorded as a WAITING_OCR request, which the worker reads (f24-processing.ts). The same file
 * sent again by the company is recognised and answered with its first request.
 */
@Injectable()
export class F24Service {
  constructor(
    private readonly repository: F24Repository,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async upload(companyId: string, upload: F24Upload): Promise<F24AcceptedDto> {
    const max = this.config.f24.maxBytes;
    if (upload.bytes.length > max) {
      throw ApiError.of('payload_too_large', `The file is ${upload.bytes.length} bytes; an F24 may be up to ${max} bytes (${(max / 1048576).toFixed(0)} MB).`);
    }
    const inspected = inspectF24File(upload.bytes);
    if ('refused' in inspected) throw REFUSALS[inspected.refused]();
    const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
    const storageKey = `f24/${sha256}`;
    const mediaType = F24_MEDIA_TYPES[inspected.kind];
    await this.storage.put(storageKey, upload.bytes, mediaType);
    const { row, existing } = await this.repository.insert({
      companyId,
      fileName: upload.fileName,
      label: upload.label,
      mediaType,
      size: upload.bytes.length,
      sha256,
      storageKey,
    });
    return { request_id: row.id, already_uploaded: existing };
  }

  private async owned(companyId: string, id: string): Promise<F24RequestRow> {
    const row = await this.repository.find(id);
    if (!row) throw ApiError.of('not_found', `F24 request ${id} not found.`);
    if (row.company_id !== companyId) throw ApiError.of('forbidden', `F24 request ${id} belongs to another company.`);
    return row;
  }

  async get(companyId: string, id: string): Promise<F24RequestDto> {
    return presentF24Request(await this.owned(companyId, id));
  }

  async file(companyId: string, id: string): Promise<{ content: Buffer; mediaType: string; fileName: string }> {
    const row = await this.owned(companyId, id);
    const stored = await this.storage.get(row.storage_key);
    if (!stored) throw ApiError.of('not_found', `The file of F24 request ${id} is no longer stored.`);
    const extension = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' }[stored.mediaType] ?? 'bin';
    return { ...stored, fileName: row.file_name ?? `f24-${row.id}.${extension}` };
  }
}
