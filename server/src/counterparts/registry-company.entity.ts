import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The development counterpart-search provider's registry of known Italian companies. Not company-scoped: it stands
 * in for a public business registry.
 */
@Entity('registry_companies')
export class RegistryCompany {
  @PrimaryColumn('text')
  vatNumber: string;

  @Column('text', { nullable: true })
  taxNumber: string | null;

  @Column('text')
  companyName: string;

  @Column('text', { nullable: true })
  address: string | null;

  @Column('text', { nullable: true })
  city: string | null;

  @Column('text', { nullable: true })
  postalCode: string | null;

  @Column('text', { nullable: true })
  provinceCode: string | null;

  @Column('char', { length: 2 })
  country: string;
}
