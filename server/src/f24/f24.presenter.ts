import type { F24Reading } from './f24-form.js';
import type { F24RequestDto, F24RequestStatus } from './f24.dto.js';
import type { F24FailureReason } from './f24-parser.js';
import { instant, instantOrNull } from '../common/time/instant.js';

/** An f24_requests row as the repository reads it. */
export interface F24RequestRow {
  id: string;
  company_id: string;
  status: F24RequestStatus;
  file_name: string | null;
  label: string | null;
  media_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  failure_reason: F24FailureReason | null;
  failure_detail: string | null;
  reading: F24Reading | null;
  page_sources: string[] | null;
  document_id: string | null;
  created_at: Date;
  processed_at: Date | null;
}

export const f24RequestPath = (companyId: string, id: string) => `/api/v1/companies/${companyId}/requests/f24/${id}`;

/** The request as the API shows it (and the f24.processed / f24.failed events carry it). Pure. */
export function presentF24Request(row: F24RequestRow): F24RequestDto {
  return {
    id: row.id,
    status: row.status,
    file_name: row.file_name,
    label: row.label,
    media_type: row.media_type,
    size: row.size,
    sha256: row.sha256,
    pages: row.page_sources,
    document_id: row.document_id,
    form: row.reading
      ? { tax_code: row.reading.tax_code, payment_date: row.reading.payment_date, saldo: row.reading.saldo, sections: row.reading.sections }
      : null,
    failure: row.failure_reason ? { reason: row.failure_reason, detail: row.failure_detail ?? '' } : null,
    file_url: `${f24RequestPath(row.company_id, row.id)}/file`,
    created_at: instant(row.created_at),
    processed_at: instantOrNull(row.processed_at),
  };
}
