/** Walks over the model: the fields of a group in order, and the official field numbers (1.1.4, 2.2.1.12…). */
import type { Field, Group } from './model-kit.js';
import { GROUPS, ROOT_GROUP } from './model.js';

/** Every field of a group in schema order, the members of choices included. */
export function fieldsOf(group: Group): Field[] {
  return group.particles.flatMap((p) => (p.kind === 'field' ? [p] : p.branches.flat()));
}

export function groupOf(field: Field): Group | undefined {
  return typeof field.type === 'string' ? GROUPS[field.type] : undefined;
}

/**
 * The numbering of the official FatturaPA tables: the header is 1 and the body 2, and every child is numbered by its
 * position among its siblings (2.2.1.12 is DatiBeniServizi/DettaglioLinee/AliquotaIVA). A group used in several places
 * (Indirizzo) gets the number of its first place.
 */
export function fieldNumbers(): Map<Field, string> {
  const numbers = new Map<Field, string>();
  const visit = (group: Group, prefix: string) => {
    fieldsOf(group).forEach((field, i) => {
      const number = prefix ? `${prefix}.${i + 1}` : String(i + 1);
      if (!numbers.has(field)) numbers.set(field, number);
      const child = groupOf(field);
      if (child) visit(child, number);
    });
  };
  visit(GROUPS[ROOT_GROUP], '');
  return numbers;
}
