import type { CounterpartDto } from './counterpart.dto.js';
import type { Counterpart } from './counterpart.entity.js';

export function presentCounterpart(counterpart: Counterpart): CounterpartDto {
  return {
    id: counterpart.id,
    company_name: counterpart.companyName,
    address: counterpart.address,
    city: counterpart.city,
    postal_code: counterpart.postalCode,
    province_code: counterpart.provinceCode,
    country: counterpart.country,
    tax_number: counterpart.taxNumber,
    vat_number: counterpart.vatNumber,
    destination_code: counterpart.destinationCode,
    pec_address: counterpart.pecAddress,
  };
}
