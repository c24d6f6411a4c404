import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DummyValue, GenerateSql } from '../common/database/generate-sql.js';

/** The SQL of the development helpers. */
@Injectable()
export class SandboxRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Claims the notices the SDI sandbox still owes a document (their steps): the worker's job for a claimed notice
   * finds no row and sends nothing.
   */
  @GenerateSql({ params: [DummyValue.UUID] })
  async claimOwedNotices(documentId: string): Promise<number[]> {
    const owed: Array<{ step: number }> = await this.db.query('DELETE FROM sdi_sandbox_notices WHERE document_id = $1 RETURNING step', [documentId]);
    return owed.map((row) => row.step);
  }
}
