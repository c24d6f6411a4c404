import { applyDecorators } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

/** The company every company-scoped route acts in. */
export const ApiCompanyParam = () =>
  ApiParam({ name: 'company_id', description: 'Company id, one of those listed by GET /companies.', schema: { type: 'string', format: 'uuid' } });

export const ApiIdParam = (name: string, description: string) => applyDecorators(ApiParam({ name, description, schema: { type: 'string', format: 'uuid' } }));
