/**
 * The FatturaPA test oracle: the official schema and the sample invoices in `../shared/fatturapa` (beside the
 * repository, never copied into it). Read-only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ORACLE_DIR = resolve(process.cwd(), '../shared/fatturapa');
export const OFFICIAL_XSD_PATH = join(ORACLE_DIR, 'xsd/Schema_VFPR12_v1.2.3.xsd');
/** The official simplified-invoice schema (FSM10 1.0.1), its xmldsig import made local. */
export const OFFICIAL_SIMPLIFIED_XSD_PATH = join(ORACLE_DIR, 'xsd/simplified/Schema_VFSM10.xsd');

export interface Sample {
  name: string;
  bytes: Buffer;
}

export function samples(folder: 'valid' | 'invalid' | 'simplified'): Sample[] {
  const dir = join(ORACLE_DIR, 'samples', folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.xml'))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(dir, name)) }));
}

export function sample(folder: 'valid' | 'invalid' | 'simplified', name: string): Buffer {
  return readFileSync(join(ORACLE_DIR, 'samples', folder, name));
}

export function officialXsd(): string {
  return readFileSync(OFFICIAL_XSD_PATH, 'utf8').replace(/^\uFEFF/, '');
}

export function officialSimplifiedXsd(): string {
  return readFileSync(OFFICIAL_SIMPLIFIED_XSD_PATH, 'utf8').replace(/^\uFEFF/, '');
}
