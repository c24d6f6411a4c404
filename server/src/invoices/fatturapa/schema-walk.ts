/** Walks over a format's model: the fields of a group in order, and the official field numbers (1.1.4, 2.2.1.12…). */
import type { Field, Group, InvoiceFormat } from './model-kit.js';
import { ORDINARY } from './model.js';

/** Every field of a group in schema order, the members of choices included. */
export function fieldsOf(group: Group): Field[] {
  return group.particles.flatMap((p) => (p.kind === 'field' ? [p] : p.branches.flat()));
}

/**
 * The numbering of the official FatturaPA tables: the header is 1 and the body 2, and every child is numbered by its
 * position among its siblings (2.2.1.12 is DatiBeniServizi/DettaglioLinee/AliquotaIVA). A group used in several places
 * (Indirizzo) gets the number of its first place.
 */
export function fieldNumbers(format: InvoiceFormat = ORDINARY): Map<Field, string> {
  const numbers = new Map<Field, string>();
  const visit = (group: Group, prefix: string) => {
    fieldsOf(group).forEach((field, i) => {
      const number = prefix ? `${prefix}.${i + 1}` : String(i + 1);
      if (!numbers.has(field)) numbers.set(field, number);
      if (typeof field.type === 'string') visit(format.groups[field.type], number);
    });
  };
  visit(format.groups[format.root], '');
  return numbers;
}
