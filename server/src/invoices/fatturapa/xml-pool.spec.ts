import { afterAll, describe, expect, it } from '@jest/globals';
import { sample } from '../../../test/fatturapa-oracle.js';
import { manyAttributesXml, manyLinesInvoiceXml } from '../../../test/large-invoices.js';
import { SignedFiles } from '../../../test/signed-files.js';
import { killNewXmlChild, xmlPoolChildren } from '../../../test/xml-children.js';
import { checkInvoiceXml, XmlPool, XmlPoolBusy, type CheckedInvoiceXml } from './index.js';

const SELLER = { vat_number: 'IT01234567890' };
const TODAY = '2026-11-28';
/** What a check says, without the parts that differ in every run. */
const verdict = (checked: CheckedInvoiceXml) => ({
  refusal: checked.refusal?.reason ?? null,
  problems: checked.problems.length,
  sdi: checked.sdiProblems.length,
});

describe('the XML pool', () => {
  const pools: XmlPool[] = [];
  const pool = (settings: Partial<ConstructorParameters<typeof XmlPool>[0]> = {}) => {
    const made = new XmlPool({ workers: 1, timeBudgetMs: 60_000, queueLimit: 4, ...settings });
    pools.push(made);
    return made;
  };
  const files = SignedFiles.create();
  afterAll(async () => {
    files.remove();
    await Promise.all(pools.map((p) => p.close()));
  });

  it('checks a file in a child process with the verdicts of the process itself', async () => {
    const xml = pool();
    const bytes = sample('valid', 'IT01234567890_FPR01.xml');
    const checked = await xml.check(bytes, SELLER);
    expect(checked.refusal).toBeNull();
    expect(checked.invoice).toEqual(checkInvoiceXml(bytes, SELLER, { today: TODAY }).invoice);
    expect(verdict(await xml.check(sample('invalid', 'sec_xxe_file_entity.xml'), SELLER))).toEqual({ refusal: 'doctype', problems: 0, sdi: 0 });
    expect(verdict(await xml.check(sample('invalid', 'sdi_00423_PrezzoTotale_not_quantity_times_price.xml'), null))).toMatchObject({
      refusal: null,
      problems: 0,
    });
  });

  it('refuses the 100,000-attribute file by its markup scan, before libxml reads it', async () => {
    const checked = await pool().check(manyAttributesXml(100_000), SELLER);
    expect(checked.refusal).toEqual({ reason: 'too_complex', message: expect.stringMatching(/more than 32 attributes/) });
  });

  it('stops a file past its time budget, answers too_complex, and goes on with a new child', async () => {
    const xml = pool({ timeBudgetMs: 100 });
    // 25,000 lines take several hundred milliseconds to read: three times the budget at the very least.
    const checked = await xml.check(manyLinesInvoiceXml('01234567890'), SELLER);
    expect(checked.refusal).toEqual({ reason: 'too_complex', message: expect.stringMatching(/longer than 100 ms/) });
    // A file a child judges in a moment (no timing of a whole parse on a busy machine): a new child answers.
    expect(verdict(await xml.check(sample('invalid', 'sec_xxe_file_entity.xml'), SELLER))).toEqual({ refusal: 'doctype', problems: 0, sdi: 0 });
  });

  it('lets the file being read finish when closed, and takes no file after', async () => {
    const xml = pool();
    const reading = xml.check(sample('valid', 'IT01234567890_FPR01.xml'), SELLER);
    await xml.close();
    expect(verdict(await reading)).toEqual({ refusal: null, problems: 0, sdi: 0 });
    await expect(xml.check(sample('valid', 'IT01234567890_FPR01.xml'), SELLER)).rejects.toThrow(XmlPoolBusy);
  });

  it('answers busy at once when every child is busy and the queue is full', async () => {
    const xml = pool({ queueLimit: 1 });
    const big = manyLinesInvoiceXml('01234567890');
    const running = [xml.check(big, SELLER), xml.check(big, SELLER)];
    await expect(xml.check(big, SELLER)).rejects.toThrow(XmlPoolBusy);
    for (const checked of await Promise.all(running)) expect(verdict(checked)).toEqual({ refusal: null, problems: 0, sdi: 0 });
  });

  it('opens a signed file in a child: the XML it carries with its check, or why the envelope is refused', async () => {
    const xml = pool();
    const bytes = sample('valid', 'IT01234567890_FPR01.xml');
    const signed = await xml.checkSigned(files.sign(bytes), SELLER);
    if (!signed.ok) throw new Error(signed.reason);
    expect(Buffer.isBuffer(signed.content) && signed.content.equals(bytes)).toBe(true);
    expect(signed.checked.invoice).toEqual(checkInvoiceXml(bytes, SELLER, { today: TODAY }).invoice);
    expect(await xml.checkSigned(files.sign(bytes, { detached: true }), SELLER)).toEqual({ ok: false, reason: expect.stringContaining('detached') });
    expect(await xml.checkSigned(Buffer.from('not a signed file'), SELLER)).toMatchObject({ ok: false });
  });

  it('answers busy, stopped, when its child dies under the file, and reads the next file in a new child', async () => {
    const xml = pool();
    const before = xmlPoolChildren();
    const reading = xml.check(manyLinesInvoiceXml('01234567890'), SELLER);
    await killNewXmlChild(before);
    await expect(reading).rejects.toMatchObject({ reason: 'stopped' });
    expect(verdict(await xml.check(sample('valid', 'IT01234567890_FPR01.xml'), SELLER))).toEqual({ refusal: null, problems: 0, sdi: 0 });
  });
});
