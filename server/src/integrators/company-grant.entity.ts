import { Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../common/database/timestamps.js';

/** An integrator may act inside a company only when granted access to it. */
@Entity('company_grants')
export class CompanyGrant {
  @PrimaryColumn('uuid')
  integratorId: string;

  @PrimaryColumn('uuid')
  companyId: string;

  @CreatedAt()
  createdAt: Date;
}
