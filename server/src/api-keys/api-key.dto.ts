import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsString, Max, Min } from 'class-validator';
import { ALL_PERMISSIONS } from '../common/auth/permissions.js';
import { FreeText } from '../common/validation/free-text.js';

/** The longest overlap a rolled key may keep working for: 7 days, in seconds. */
export const MAX_ROLL_OVERLAP_SECONDS = 7 * 24 * 3600;

export const API_KEY_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

const PERMISSIONS_DOC =
  'What the key may do: `*` (everything), or `family:read` / `family:write` per resource family (write implies read). See Authentication, "Permissions".';

@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDto {
  @ApiProperty({ format: 'uuid', example: '5b0e7c1d-2a3f-4e6b-9c8d-7f1a2b3c4d5e' })
  id: string;

  @ApiProperty({ description: 'A name of yours, to recognise the key.', example: 'invoicing service' })
  name: string;

  @ApiProperty({
    description: 'The public start of the key (environment and lookup id): enough to recognise it in your configuration, never the secret.',
    example: 'fls_dev_Ab3dE6gH',
  })
  prefix: string;

  @ApiProperty({ type: [String], enum: ALL_PERMISSIONS, description: PERMISSIONS_DOC, example: ['documents:write', 'transactions:read'] })
  permissions: string[];

  @ApiProperty({
    enum: API_KEY_STATUSES,
    description: '`ACTIVE` (it authenticates requests; a rolled key until `expires_at`), `EXPIRED` (rolled, its overlap is over) or `REVOKED`.',
    example: 'ACTIVE',
  })
  status: ApiKeyStatus;

  @ApiProperty({ format: 'date-time', example: '2026-03-02T09:30:00.000Z' })
  created_at: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When the key last authenticated a request, to the minute: each API process records a key’s use at most once a minute, a moment after the request. Null if it never did.',
    example: '2026-03-05T14:12:00.000Z',
  })
  last_used_at: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a rolled key stops working (the overlap chosen when rolling it); null for a key that was never rolled.',
    example: null,
  })
  expires_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the key was revoked; null while it is not.', example: null })
  revoked_at: string | null;
}

@ApiSchema({ name: 'ApiKeyWithSecret' })
export class ApiKeyWithSecretDto extends ApiKeyDto {
  @ApiProperty({
    description: 'The whole key, shown only in this answer (creation and rolling): Flusso stores only a keyed hash of it. Store it with your other secrets.',
    example: 'fls_dev_Ab3dE6gHj2K4m5N7p8Q9r1S3t4V6w7X9',
  })
  secret: string;
}

@ApiSchema({ name: 'ApiKeyCreatePayload' })
export class CreateApiKeyDto {
  @ApiProperty({ description: 'A name to recognise the key by, such as the service that will use it.', example: 'invoicing service', maxLength: 100 })
  @IsDefined({ message: 'name is required' })
  @FreeText('name', 100)
  name: string;

  @ApiProperty({
    type: [String],
    enum: ALL_PERMISSIONS,
    minItems: 1,
    maxItems: ALL_PERMISSIONS.length,
    description: `${PERMISSIONS_DOC} The calling key must hold every permission it gives (403 \`insufficient_permission\` naming the first it lacks): a key never creates a key that may do more than itself.`,
    example: ['documents:write', 'transactions:read'],
  })
  @IsDefined({ message: 'permissions is required' })
  @IsArray({ message: 'permissions must be an array of permission names' })
  @IsString({ each: true, message: 'permissions must be an array of permission names' })
  @ArrayMinSize(1, { message: 'permissions must name at least one permission' })
  @ArrayMaxSize(ALL_PERMISSIONS.length, { message: `permissions may name at most ${ALL_PERMISSIONS.length} permissions` })
  permissions: string[];
}

@ApiSchema({ name: 'ApiKeyRollPayload' })
export class RollApiKeyDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_ROLL_OVERLAP_SECONDS,
    description:
      'For how many seconds the rolled key keeps working beside the new one, at most 7 days (604800), so you can deploy the new key first; `0` stops it at once (a leaked key). Rolling a key already rolled can only bring its end nearer.',
    example: 86400,
  })
  @IsDefined({ message: 'expires_in is required' })
  @IsInt({ message: 'expires_in must be an integer number of seconds' })
  @Min(0, { message: `expires_in must be between 0 and ${MAX_ROLL_OVERLAP_SECONDS} seconds (7 days)` })
  @Max(MAX_ROLL_OVERLAP_SECONDS, { message: `expires_in must be between 0 and ${MAX_ROLL_OVERLAP_SECONDS} seconds (7 days)` })
  expires_in: number;
}
