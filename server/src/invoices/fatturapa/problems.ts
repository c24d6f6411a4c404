/** One problem found in an invoice, located both in its JSON form and in its XML form. */
export interface InvoiceProblem {
  /** JSON Pointer into the JSON form of the invoice: `/fattura_elettronica_body/0/dati_generali/dati_generali_documento/data`. */
  pointer: string;
  /** The same place in the XML, from the root's children, with the index of elements that may repeat: `/FatturaElettronicaBody/0/DatiGenerali/DatiGeneraliDocumento/Data`. */
  path: string;
  /** What is wrong, for a person: names the element and says what it must be. */
  message: string;
  /**
   * `missing` a required element or member; `unexpected` one the schema doesn't allow there (or out of order);
   * `type` a JSON member of the wrong JSON type (a number for a string, an object for a list); `value` a value
   * outside its format or codes.
   */
  kind: 'missing' | 'unexpected' | 'type' | 'value';
  /** Line in the XML, when the invoice came as XML. */
  line?: number;
}

/** Where a walk over the invoice is: the JSON pointer and the XML path, grown together. */
export interface Place {
  pointer: string;
  path: string;
}

const escapePointer = (token: string) => (token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token);

export function child(place: Place, json: string, xml: string): Place {
  return { pointer: `${place.pointer}/${escapePointer(json)}`, path: `${place.path}/${xml}` };
}

export function item(place: Place, index: number): Place {
  return { pointer: `${place.pointer}/${index}`, path: `${place.path}/${index}` };
}

export const ROOT_PLACE: Place = { pointer: '', path: '' };
