/**
 * Signed invoice files (`.xml.p7m`): a CAdES-BES envelope (CMS SignedData, RFC 5652) that carries the FatturaPA XML,
 * as the SDI accepts them. The envelope is opened with pkijs and checked to be intact: every signer's signature is
 * verified with the certificate it carries, and the signed digest (the messageDigest attribute) must be the content's.
 * Trust in the certificate itself (a qualified CA of the EU trusted lists, revocation, validity at signing time) is
 * not judged here: see the portal's e-invoice guide.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const SIGNED_DATA = '1.2.840.113549.1.7.2';
const DATA = '1.2.840.113549.1.7.1';

export interface SignedFileSigner {
  /** The signer's certificate subject, as `C=IT, O=…, CN=…`. */
  subject: string;
  serial_number: string;
  not_before: string;
  not_after: string;
}

export type OpenedSignedFile = { ok: true; content: Buffer; signers: SignedFileSigner[] } | { ok: false; reason: string };

/**
 * The DER bytes of an envelope sent as DER, as base64 (as many ERPs send it, line breaks allowed) or as PEM; null when
 * the bytes are none of these.
 */
export function envelopeBytes(body: Buffer): Buffer | null {
  if (body.length > 1 && body[0] === 0x30) return body;
  const text = body.toString('latin1').trim();
  const base64 = text.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  if (!base64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) return null;
  const der = Buffer.from(base64, 'base64');
  return der.length > 1 && der[0] === 0x30 ? der : null;
}

const hex = (bytes: ArrayBuffer) => Buffer.from(bytes).toString('hex').toUpperCase();

const NAMES: Record<string, string> = {
  '2.5.4.6': 'C',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.3': 'CN',
  '2.5.4.5': 'SERIALNUMBER',
  '2.5.4.42': 'G',
  '2.5.4.4': 'SN',
};
const subjectOf = (certificate: pkijs.Certificate) =>
  certificate.subject.typesAndValues.map((tv) => `${NAMES[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`).join(', ');

/** Opens an envelope: its content when every signature holds, else the reason it cannot be accepted. */
export async function openSignedFile(body: Buffer): Promise<OpenedSignedFile> {
  const der = envelopeBytes(body);
  if (!der) return { ok: false, reason: 'The body is not a signed file: expected a CMS (PKCS #7) envelope, in DER or base64.' };
  const asn1 = asn1js.fromBER(new Uint8Array(der).buffer);
  if (asn1.offset === -1) return { ok: false, reason: 'The signed file cannot be read: its DER encoding is damaged.' };
  let signed: pkijs.SignedData;
  try {
    const info = new pkijs.ContentInfo({ schema: asn1.result });
    if (info.contentType !== SIGNED_DATA) return { ok: false, reason: 'The envelope is not CMS SignedData (a .p7m signed file).' };
    signed = new pkijs.SignedData({ schema: info.content });
  } catch {
    return { ok: false, reason: 'The signed file cannot be read: it is not a CMS SignedData envelope.' };
  }
  const content = signed.encapContentInfo;
  if (content.eContentType !== DATA || !content.eContent) {
    return { ok: false, reason: 'The signed file carries no content: a detached signature cannot be accepted, the envelope must hold the invoice.' };
  }
  if (signed.signerInfos.length === 0) return { ok: false, reason: 'The envelope has no signature.' };
  const certificates = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const signers: SignedFileSigner[] = [];
  for (let index = 0; index < signed.signerInfos.length; index++) {
    const holds = await signed
      .verify({ signer: index, checkChain: false, extendedMode: true })
      .then((result) => result.signatureVerified === true && result.signerCertificate !== undefined)
      .catch(() => false);
    if (!holds) {
      return {
        ok: false,
        reason: `Signature ${index + 1} of the envelope does not hold: the content was changed after signing, or the signer's certificate is missing from the envelope.`,
      };
    }
    const sid = signed.signerInfos[index].sid;
    const certificate =
      sid instanceof pkijs.IssuerAndSerialNumber
        ? certificates.find((c) => c.serialNumber.isEqual(sid.serialNumber) && c.issuer.isEqual(sid.issuer))
        : undefined;
    const signer = certificate ?? certificates[0];
    signers.push({
      subject: subjectOf(signer),
      serial_number: hex(signer.serialNumber.valueBlock.valueHexView.slice().buffer),
      not_before: signer.notBefore.value.toISOString(),
      not_after: signer.notAfter.value.toISOString(),
    });
  }
  // Constructed OCTET STRINGs (content written in chunks, as some signing tools do) are joined by pkijs' getter.
  return { ok: true, content: Buffer.from(content.eContent.getValue()), signers };
}
