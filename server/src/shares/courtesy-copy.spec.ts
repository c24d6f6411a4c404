import { parseInvoiceXml, type Invoice } from '../invoices/fatturapa/index.js';
import { sample, samples } from '../../test/fatturapa-oracle.js';
import { courtesyCopy, defaultTexts } from './courtesy-copy.js';

function invoiceOf(name: string) {
  const parsed = parseInvoiceXml(sample('valid', name));
  if (!parsed.invoice) throw new Error(`${name} did not parse: ${JSON.stringify(parsed.problems)}`);
  return parsed.invoice as Invoice;
}

describe('courtesy copy', () => {
  it('defaults name the document type and number in Italian', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const document = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
    const texts = defaultTexts(invoice);
    expect(texts.subject).toContain(`Fattura n. ${document.numero} del `);
    expect(texts.message).toMatch(/^Gentile cliente,/);
    expect(texts.message).toContain(`n. ${document.numero}`);
    expect(texts.message).toContain('copia di cortesia');
  });

  it('ends the sentence naming the seller once, whether or not the name ends with a dot', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const anagrafica = invoice.fattura_elettronica_header.cedente_prestatore.dati_anagrafici.anagrafica;
    anagrafica.denominazione = 'Rossi Forniture S.r.l.';
    expect(defaultTexts(invoice).message).toContain('emesso da Rossi Forniture S.r.l. Il file XML');
    anagrafica.denominazione = 'Rossi Forniture SRL';
    expect(defaultTexts(invoice).message).toContain('emesso da Rossi Forniture SRL. Il file XML');
  });

  it("says in both renderings, whatever the sender's message, that the copy has no fiscal value", () => {
    const copy = courtesyCopy(invoiceOf('IT01234567890_FPR01.xml'), { message: 'Buongiorno, ecco la fattura.' });
    for (const rendering of [copy.text, copy.html]) expect(rendering).toContain('Copia di cortesia senza valore fiscale.');
  });

  it("gives the link's expiry with the year in full, in Italian time", () => {
    const link = { url: 'https://api.example/x', expiresAt: new Date('2026-12-26T01:01:00Z') };
    const copy = courtesyCopy(invoiceOf('IT01234567890_FPR01.xml'), { link });
    expect(copy.text).toContain('valido fino al 26/12/2026 alle 02:01: https://api.example/x');
    expect(copy.html).toContain('>Il file XML è scaricabile anche da questo link, valido fino al 26/12/2026 alle 02:01</a>');
  });

  it('shows parties, lines, VAT summary, total and due dates in both renderings', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const body = invoice.fattura_elettronica_body[0];
    const copy = courtesyCopy(invoice);
    const seller = invoice.fattura_elettronica_header.cedente_prestatore.dati_anagrafici;
    for (const rendering of [copy.text, copy.html]) {
      expect(rendering).toContain(seller.id_fiscale_iva.id_codice);
      for (const line of body.dati_beni_servizi.dettaglio_linee) expect(rendering).toContain(line.descrizione.slice(0, 20).replace(/&/g, '&amp;'));
      expect(rendering).toContain('Riepilogo IVA');
      expect(rendering).toContain('Totale documento');
    }
    expect(copy.html).toMatch(/^<!doctype html><html lang="it">/);
  });

  it('keeps every amount of the HTML tables on one line, so the currency never wraps apart on a phone', () => {
    const cells = [...courtesyCopy(invoiceOf('IT01234567890_FPR01.xml')).html.matchAll(/<td style="([^"]*)">([^<]*) €<\/td>/g)];
    expect(cells.length).toBeGreaterThan(3);
    for (const [, style] of cells) expect(style).toContain('white-space:nowrap');
  });

  it('writes amounts the Italian way, exactly', () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    const document = invoice.fattura_elettronica_body[0].dati_generali.dati_generali_documento;
    document.importo_totale_documento = '1234567.5';
    expect(courtesyCopy(invoice).text).toContain('Totale documento: 1.234.567,50 €');
  });

  it("escapes the invoice's and the sender's text in HTML", () => {
    const invoice = invoiceOf('IT01234567890_FPR01.xml');
    invoice.fattura_elettronica_body[0].dati_beni_servizi.dettaglio_linee[0].descrizione = '<script>alert(1)</script>';
    const copy = courtesyCopy(invoice, { message: 'Salve <b>Mario</b> & co.' });
    expect(copy.html).not.toContain('<script>');
    expect(copy.html).toContain('&lt;script&gt;');
    expect(copy.html).toContain('Salve &lt;b&gt;Mario&lt;/b&gt; &amp; co.');
    expect(copy.text).toMatch(/^Salve <b>Mario<\/b> & co\./);
  });

  it('renders every valid sample without throwing', () => {
    for (const { name, bytes } of samples('valid')) {
      const parsed = parseInvoiceXml(bytes);
      if (!parsed.invoice || parsed.invoice.fattura_elettronica_body.length !== 1) continue;
      const copy = courtesyCopy(parsed.invoice, { link: { url: 'https://api.example/x?sig=a&b=c', expiresAt: new Date('2026-12-01T10:00:00Z') } });
      expect({ name, ok: copy.text.includes('Totale documento') && copy.html.includes('href="https://api.example/x?sig=a&amp;b=c"') }).toEqual({
        name,
        ok: true,
      });
    }
  });
});
