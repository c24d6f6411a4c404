import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { page, type Page } from '../common/listing/list-page.js';
import { parseListQuery, rejectUnknownParams, type QueryParams } from '../common/listing/list-query.js';
import { AFFIX_MAX_LENGTH, type CreateSectionalDto, MAX_PROGRESSIVE, type SectionalDto, type UpdateSectionalDto } from './sectional.dto.js';
import type { Sectional } from './sectional.entity.js';
import { formatNumber } from './sectional-number.js';
import { presentSectional } from './sectional.presenter.js';
import { sectionalList, SectionalsRepository, type Series } from './sectionals.repository.js';

/** A number taken from a sectional, for the document that carries it. */
export interface TakenNumber {
  sectionalId: string;
  progressive: number;
  number: string;
  /** The sectional as taking the number left it, for answers presented without reading it again. */
  sectional: Sectional;
}

const SERIES_CONSTRAINT = 'sectionals_company_series';

/**
 * The company's numbering series (sezionali). Each numbers one year; a number is taken by `takeNumber()` in the
 * transaction that inserts the document, so numbers are gap-free and unique, and comes back (`giveBack()`) only when
 * the document holding the series' last number is deleted. Once a series has issued a number its
 * year, prefix and suffix are fixed (422 sectional_in_use): the numbers already on documents must stay what the series
 * says they are. minimum_digits may change: it only pads the numbers still to come.
 */
@Injectable()
export class SectionalsService {
  // Built here rather than injected: the CLI, the demo and the reconciliation sweep build this service by hand.
  private readonly sectionals: SectionalsRepository;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.sectionals = new SectionalsRepository(db);
  }

  async list(companyId: string, params: QueryParams): Promise<Page<SectionalDto>> {
    const query = parseListQuery(params, sectionalList);
    const { rows, cursor } = await this.sectionals.page(companyId, query);
    return page(rows.map(presentSectional), cursor, query.pageSize);
  }

  async get(companyId: string, id: string, params: QueryParams): Promise<SectionalDto> {
    rejectUnknownParams(params, []);
    return presentSectional(await this.sectionals.findOwned(this.db.manager, companyId, id));
  }

  async create(companyId: string, body: CreateSectionalDto): Promise<SectionalDto> {
    const sectional = {
      companyId,
      year: body.year,
      prefix: body.prefix ?? '',
      suffix: body.suffix ?? '',
      minimumDigits: body.minimum_digits,
      lastProgressive: 0,
    };
    checkAffixes(sectional);
    return presentSectional(await this.uniqueSeries(sectional, () => this.sectionals.save(this.db.manager, sectional)));
  }

  async update(companyId: string, id: string, body: UpdateSectionalDto): Promise<SectionalDto> {
    if (Object.values(body).every((value) => value === undefined)) throw ApiError.of('bad_request', 'The body names no member to update.', '');
    const found = await this.sectionals.findOwned(this.db.manager, companyId, id);
    const saved = await this.uniqueSeries({ ...found, ...changed(found, body) }, () =>
      this.db.transaction(async (manager) => {
        // Locked and read again: a number taken meanwhile (takeNumber locks the same row) is seen here.
        const current = await this.sectionals.lockForUpdate(manager, found);
        const next = { ...current, ...changed(current, body) };
        if (current.lastProgressive > 0) {
          const fixed = (['year', 'prefix', 'suffix'] as const).find((member) => next[member] !== current[member]);
          if (fixed) {
            throw ApiError.of(
              'sectional_in_use',
              `The sectional has issued numbers up to ${formatNumber(current, current.lastProgressive)}: its year, prefix and suffix can no longer change.`,
              `/${fixed}`,
            );
          }
        }
        checkAffixes(next);
        return this.sectionals.save(manager, next);
      }),
    );
    return presentSectional(saved);
  }

  /**
   * Takes the sectional's next number for a document dated in `year`, inside the caller's transaction (the one that
   * inserts the document): the counter row stays locked until that transaction ends, so concurrent callers queue and a
   * rolled-back create gives its number back. Another company's sectional is a 403, an unknown one a 404, a sectional
   * of another year a 422 sectional_year_mismatch, each at `pointer`.
   */
  async takeNumber(manager: EntityManager, companyId: string, sectionalId: string, year: number, pointer: string): Promise<TakenNumber> {
    const sectional = await this.sectionals.findOwned(manager, companyId, sectionalId, pointer);
    const row = await this.sectionals.takeNext(manager, sectional, MAX_PROGRESSIVE);
    if (!row) throw ApiError.of('unprocessable_entity', `The sectional has issued its last number (${MAX_PROGRESSIVE}); create a new one.`, pointer);
    // Read under the row lock: the year can't change any more (a series that issued a number keeps it).
    if (row.year !== year) {
      throw ApiError.of(
        'sectional_year_mismatch',
        `The sectional numbers the year ${row.year} and the document is dated ${year}: number it from a sectional of ${year}.`,
        pointer,
      );
    }
    const progressive = row.last_progressive;
    return {
      sectionalId: sectional.id,
      progressive,
      number: formatNumber({ prefix: row.prefix, suffix: row.suffix, minimumDigits: row.minimum_digits }, progressive),
      sectional: { ...sectional, lastProgressive: progressive, updatedAt: row.updated_at },
    };
  }

  /**
   * Gives the number of a document being deleted back to its sectional, inside the caller's transaction. Only the
   * series' last number comes back (the counter goes down by one, and the next document takes it); deleting a document
   * with an earlier number would leave a gap in the series: 409 sectional_gap.
   */
  async giveBack(manager: EntityManager, document: { companyId: string; sectionalId: string; progressive: number; number: string }): Promise<void> {
    if (await this.sectionals.giveBackLast(manager, document)) return;
    const sectional = await this.sectionals.get(manager, document.companyId, document.sectionalId);
    throw ApiError.of(
      'sectional_gap',
      `Document ${document.number} has number ${document.progressive} of its sectional, which has issued numbers up to ${formatNumber(sectional, sectional.lastProgressive)}: deleting it would leave a gap in the series. Only the document with the series' last number can be deleted.`,
    );
  }

  /** Runs a write; another sectional of the company with the same year, prefix and suffix is a 409 naming it. */
  private async uniqueSeries(sectional: Series, write: () => Promise<Sectional>): Promise<Sectional> {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof QueryFailedError) || (error.driverError as { constraint?: string }).constraint !== SERIES_CONSTRAINT) throw error;
      const existing = await this.sectionals.idOfSeries(sectional);
      throw ApiError.of(
        'sectional_exists',
        `${existing ? `Sectional ${existing}` : 'Another sectional'} of this company already numbers year ${sectional.year} with prefix ${JSON.stringify(sectional.prefix)} and suffix ${JSON.stringify(sectional.suffix)}.`,
      );
    }
  }
}

function changed(current: Sectional, body: UpdateSectionalDto): Partial<Sectional> {
  return {
    year: body.year ?? current.year,
    prefix: body.prefix ?? current.prefix,
    suffix: body.suffix ?? current.suffix,
    minimumDigits: body.minimum_digits ?? current.minimumDigits,
  };
}

/** Prefix and suffix together fit the room FatturaPA's Numero leaves beside the digits. */
function checkAffixes(sectional: Pick<Sectional, 'prefix' | 'suffix'>): void {
  if (sectional.prefix.length + sectional.suffix.length > AFFIX_MAX_LENGTH) {
    throw ApiError.of('unprocessable_entity', `prefix and suffix together must be at most ${AFFIX_MAX_LENGTH} characters long`, '/suffix');
  }
}
