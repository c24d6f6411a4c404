import type { SectionalDto } from './sectional.dto.js';
import type { Sectional } from './sectional.entity.js';
import { formatNumber } from './sectional-number.js';
import { instant } from '../common/time/instant.js';

export const presentSectional = (sectional: Sectional): SectionalDto => ({
  id: sectional.id,
  year: sectional.year,
  prefix: sectional.prefix,
  suffix: sectional.suffix,
  minimum_digits: sectional.minimumDigits,
  last_progressive: sectional.lastProgressive,
  next_number: formatNumber(sectional, sectional.lastProgressive + 1),
  created_at: instant(sectional.createdAt),
  updated_at: instant(sectional.updatedAt),
});
