import { sample } from '../../../test/fatturapa-oracle.js';
import { SignedFiles } from '../../../test/signed-files.js';
import { envelopeBytes, openSignedFile } from './signed-file.js';

describe('signed invoice files (.p7m)', () => {
  let files: SignedFiles;
  const xml = sample('valid', 'IT01234567890_FPA01.xml');
  beforeAll(() => (files = SignedFiles.create()));
  afterAll(() => files.remove());

  it('opens a CAdES envelope made by OpenSSL and gives back the XML it carries, byte for byte, with its signer', async () => {
    const opened = await openSignedFile(files.sign(xml));
    expect(opened).toEqual({
      ok: true,
      content: xml,
      signers: [expect.objectContaining({ subject: expect.stringContaining('CN=MARIO ROSSI FIRST'), serial_number: expect.stringMatching(/^[0-9A-F]+$/) })],
    });
  });

  it('takes the envelope as base64 with line breaks, as ERPs send it, and as PEM', async () => {
    const der = files.sign(xml);
    const base64 = der.toString('base64').replace(/(.{76})/g, '$1\r\n');
    expect(await openSignedFile(Buffer.from(base64))).toMatchObject({ ok: true, content: xml });
    expect(await openSignedFile(Buffer.from(`-----BEGIN PKCS7-----\n${base64}\n-----END PKCS7-----\n`))).toMatchObject({ ok: true, content: xml });
  });

  it('checks every signature of an envelope signed twice', async () => {
    const opened = await openSignedFile(files.sign(xml, { signers: 2 }));
    expect(opened.ok && opened.signers.map((s) => s.subject.match(/CN=([^,]+)/)?.[1])).toEqual(['MARIO ROSSI FIRST', 'MARIO ROSSI SECOND']);
  });

  it('refuses an envelope whose content was changed after signing', async () => {
    const der = files.sign(xml);
    const at = der.indexOf(Buffer.from('<Numero>123</Numero>'));
    expect(at).toBeGreaterThan(0);
    der.write('<Numero>124</Numero>', at);
    expect(await openSignedFile(der)).toEqual({ ok: false, reason: expect.stringContaining('does not hold') });
  });

  it('refuses a detached signature, a damaged envelope and what is no envelope at all', async () => {
    expect(await openSignedFile(files.sign(xml, { detached: true }))).toEqual({ ok: false, reason: expect.stringContaining('detached') });
    expect(await openSignedFile(files.sign(xml).subarray(0, 500))).toMatchObject({ ok: false });
    expect(await openSignedFile(Buffer.from('not a signed file'))).toMatchObject({ ok: false });
    expect(await openSignedFile(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01]))).toMatchObject({ ok: false });
    expect(envelopeBytes(Buffer.from(''))).toBeNull();
  });
});
