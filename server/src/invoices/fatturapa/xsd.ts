/**
 * The XML schema Flusso validates FatturaPA files with, generated from the model (model.ts). `npm run xsd` writes it
 * to `xsd/`; a test fails when the committed file differs from what this function returns.
 *
 * It accepts exactly what the official schema 1.2.3 accepts, with one deliberate leniency: the optional XML
 * signature at the end of the root is any element of the xmldsig namespace, not checked further, so no xmldsig
 * schema has to be loaded (or fetched) to validate.
 */
import { many, type Base, type Field, type Group, type InvoiceFormat, type Particle, type SimpleType } from './model-kit.js';
import { ORDINARY, XMLDSIG_NAMESPACE } from './model.js';
import { fieldNumbers } from './schema-walk.js';

const XS_BASE: Record<Base, string> = {
  string: 'xs:string',
  normalizedString: 'xs:normalizedString',
  token: 'xs:token',
  decimal: 'xs:decimal',
  integer: 'xs:integer',
  date: 'xs:date',
  dateTime: 'xs:dateTime',
  base64Binary: 'xs:base64Binary',
};

const CHARSET_PATTERN = { basic: '\\p{IsBasicLatin}+', latin1: '[\\p{IsBasicLatin}\\p{IsLatin-1Supplement}]+', any: undefined } as const;

const escape = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const doc = (indent: string, text: string): string[] => [`${indent}<xs:annotation><xs:documentation>${escape(text)}</xs:documentation></xs:annotation>`];

function simpleType(type: SimpleType): string[] {
  const facets: string[] = [];
  const add = (facet: string, value: string | number | undefined) => {
    if (value !== undefined) facets.push(`      <xs:${facet} value="${escape(String(value))}"/>`);
  };
  add('pattern', type.charset ? CHARSET_PATTERN[type.charset] : undefined);
  add('pattern', type.pattern);
  add('minLength', type.minLength);
  add('maxLength', type.maxLength);
  add('minInclusive', type.minInclusive);
  add('maxInclusive', type.maxInclusive);
  for (const [value, meaning] of Object.entries(type.enumeration ?? {})) {
    facets.push(`      <xs:enumeration value="${escape(value)}">`, ...doc('        ', meaning), '      </xs:enumeration>');
  }
  return [
    `  <xs:simpleType name="${type.name}">`,
    ...doc('    ', type.format),
    `    <xs:restriction base="${XS_BASE[type.base]}"${facets.length ? '' : '/'}>`,
    ...(facets.length ? [...facets, '    </xs:restriction>'] : []),
    '  </xs:simpleType>',
  ];
}

function occurs(field: Field): string {
  const min = field.occurs === '?' || field.occurs === '*' ? ' minOccurs="0"' : '';
  const max = many(field.occurs) ? ' maxOccurs="unbounded"' : '';
  return min + max;
}

function element(field: Field, indent: string, number: string | undefined): string {
  const type = typeof field.type === 'string' ? field.type : field.type.name;
  const fixed = field.default === undefined ? '' : ` default="${escape(field.default)}"`;
  const label = number ? `${number} ` : '';
  return `${indent}<xs:element name="${field.xml}" type="fpa:${type}"${occurs(field)}${fixed}><xs:annotation><xs:documentation>${escape(label + field.meaning)}</xs:documentation></xs:annotation></xs:element>`;
}

function particles(list: readonly Particle[], indent: string, numbers: Map<Field, string>): string[] {
  return list.flatMap((particle) =>
    particle.kind === 'field'
      ? [element(particle, indent, numbers.get(particle))]
      : [
          `${indent}<xs:choice>`,
          ...particle.branches.flatMap((branch) => [
            `${indent}  <xs:sequence>`,
            ...branch.map((field) => element(field, `${indent}    `, numbers.get(field))),
            `${indent}  </xs:sequence>`,
          ]),
          `${indent}</xs:choice>`,
        ],
  );
}

function complexType(format: InvoiceFormat, name: string, group: Group, numbers: Map<Field, string>): string[] {
  const root = name === format.root;
  return [
    `  <xs:complexType name="${name}">`,
    ...doc('    ', group.meaning),
    '    <xs:sequence>',
    ...particles(group.particles, '      ', numbers),
    ...(root ? [`      <xs:any namespace="${XMLDSIG_NAMESPACE}" processContents="skip" minOccurs="0"/>`] : []),
    '    </xs:sequence>',
    ...(root
      ? format.rootAttributes.map(
          (a) =>
            `    <xs:attribute name="${a.xml}" type="fpa:${a.type.name}" use="${a.required ? 'required' : 'optional'}"><xs:annotation><xs:documentation>${escape(a.meaning)}</xs:documentation></xs:annotation></xs:attribute>`,
        )
      : []),
    '  </xs:complexType>',
  ];
}

/** Where each format's model is written, for the comment that heads its generated schema. */
const MODEL_FILE: Record<string, string> = { Invoice: 'model.ts', SimplifiedInvoice: 'simplified-model.ts' };

export function invoiceXsd(format: InvoiceFormat = ORDINARY): string {
  const numbers = fieldNumbers(format);
  const simpleTypes = format.types;
  const names = [...simpleTypes.map((t) => t.name), ...Object.keys(format.groups)];
  const clash = names.find((name, i) => names.indexOf(name) !== i);
  if (clash) throw new Error(`Two types of the FatturaPA model are named ${clash}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- Generated by \`npm run xsd\` from server/src/invoices/fatturapa/${MODEL_FILE[format.component]}: edit the model, not this file. -->`,
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:fpa="${format.namespace}" targetNamespace="${format.namespace}" elementFormDefault="unqualified" attributeFormDefault="unqualified" version="${format.schemaVersion}">`,
    `  <xs:element name="${format.root}" type="fpa:${format.root}">`,
    ...doc('    ', `${format.title}, as Flusso's invoice model declares it`),
    '  </xs:element>',
    ...Object.entries(format.groups).flatMap(([name, group]) => complexType(format, name, group, numbers)),
    ...simpleTypes.flatMap(simpleType),
    '</xs:schema>',
    '',
  ].join('\n');
}
