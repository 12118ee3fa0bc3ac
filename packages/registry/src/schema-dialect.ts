import { ConfigError, type JsonSchemaObject } from '@nexus/core';
import type { default as AjvCore, Options } from 'ajv/dist/core.js';

/** An ajv class; each one validates one JSON Schema dialect. */
export type AjvClass = new (options: Options) => AjvCore;

/** A JSON Schema dialect the registry validates. */
export interface SchemaDialect {
  /** As people write it: `2020-12`, `draft-07`. */
  readonly name: string;
  /** Keywords of the registry's subset that the dialect does not have (its ajv refuses them). */
  readonly lacking: ReadonlySet<string>;
  /** Whether shared schemas may also sit under `definitions`, as before 2019-09. */
  readonly definitions: boolean;
  /** Loads the ajv class that validates the dialect; dialects with the same loader share one ajv. */
  readonly loadAjv: () => Promise<AjvClass>;
}

const loadAjv2020 = () => import('ajv/dist/2020.js').then((module) => module.Ajv2020);
const loadAjv2019 = () => import('ajv/dist/2019.js').then((module) => module.Ajv2019);
const loadAjvDraft07 = () => import('ajv/dist/ajv.js').then((module) => module.Ajv);

const DRAFT_2020_12: SchemaDialect = { name: '2020-12', lacking: new Set(), definitions: false, loadAjv: loadAjv2020 };

// Draft-06 schemas are validated as draft-07, as ajv itself does (it adds the draft-06 meta-schema to
// its draft-07 class): draft-07 only added keywords. Draft-04 differs in meaning (a boolean
// `exclusiveMinimum`, `id`), so it is refused rather than misread.
const DIALECTS: Record<string, SchemaDialect> = {
  'json-schema.org/draft/2020-12/schema': DRAFT_2020_12,
  'json-schema.org/draft/2019-09/schema': {
    name: '2019-09',
    lacking: new Set(['prefixItems']),
    definitions: false,
    loadAjv: loadAjv2019,
  },
  'json-schema.org/draft-07/schema': {
    name: 'draft-07',
    lacking: new Set(['prefixItems', 'dependentRequired']),
    definitions: true,
    loadAjv: loadAjvDraft07,
  },
  'json-schema.org/draft-06/schema': {
    name: 'draft-06',
    lacking: new Set(['prefixItems', 'dependentRequired']),
    definitions: true,
    loadAjv: loadAjvDraft07,
  },
};

/**
 * The dialect a skill's parameters schema is validated by, from its root `$schema` (http or https,
 * with or without the closing `#`); 2020-12 when there is none. Throws a {@link ConfigError} naming
 * the skill for a `$schema` the registry does not validate (draft-04, an unknown URI).
 */
export function schemaDialectOf(skill: string, schema: JsonSchemaObject): SchemaDialect {
  const uri = (schema as Record<string, unknown>).$schema;
  if (uri === undefined) return DRAFT_2020_12;
  const dialect = typeof uri === 'string' ? DIALECTS[uri.replace(/^https?:\/\//, '').replace(/#$/, '')] : undefined;
  if (dialect) return dialect;
  throw new ConfigError(
    `Invalid parameters schema for skill "${skill}": $schema ${JSON.stringify(uri)} is not a dialect the registry validates; ` +
      'use JSON Schema 2020-12 (or leave $schema out), 2019-09, draft-07 or draft-06.',
  );
}
