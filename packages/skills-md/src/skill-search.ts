import { defineSkill, type SkillSpec, ToolResult } from '@nexus/core';
import type MiniSearch from 'minisearch';

/** The search tool's name. */
export const SKILL_SEARCH_TOOL_NAME = 'skill_search';
/** Most results one search returns. */
export const MAX_SEARCH_RESULTS = 50;
const DEFAULT_SEARCH_RESULTS = 5;

/** What a search looks at of a package. */
export interface SearchablePackage {
  readonly folder: string;
  readonly name: string;
  readonly description: string;
  readonly routingKeywords: readonly string[];
  readonly intents: readonly string[];
}

/** One package a search found, best first. */
export interface SkillSearchResult {
  /** The skill's name. */
  skill: string;
  /** The tools to call (none for an untrusted project package). */
  tools: string[];
  description: string;
  /** MiniSearch's relevance score (BM25 with field boosts); only the order means something. */
  score: number;
  /** Whether its tools are listed with their full schemas (else they are ghosts, or not listed but callable). */
  loaded: boolean;
}

/** Arguments of `skill_search`. */
export interface SkillSearchArguments {
  query: string;
  limit?: number;
}

type Document = { id: string; name: string; keywords: string; intents: string; description: string };

/**
 * Full-text search over packages with MiniSearch: name, routing keywords, intents and description
 * (boosted in that order), prefix and fuzzy matching (a fifth of a term's letters may differ). The
 * index is built at the first search after the packages changed, and MiniSearch loaded at the first.
 */
export class SkillSearchIndex {
  #index: MiniSearch<Document> | undefined;
  #packages: readonly SearchablePackage[] = [];

  /** Sets the packages searched (the index is rebuilt lazily). */
  update(packages: readonly SearchablePackage[]): void {
    this.#packages = packages;
    this.#index = undefined;
  }

  /** Folders of the packages matching `query`, best first, with their scores. */
  async search(query: string, limit: number): Promise<{ folder: string; score: number }[]> {
    this.#index ??= this.#build((await import('minisearch')).default);
    return this.#index
      .search(query, { prefix: true, fuzzy: 0.2, boost: { name: 3, keywords: 2, intents: 1.5, description: 1 }, combineWith: 'OR' })
      .slice(0, limit)
      .map((result) => ({ folder: String(result.id), score: result.score }));
  }

  #build(Engine: typeof MiniSearch): MiniSearch<Document> {
    const index = new Engine<Document>({ fields: ['name', 'keywords', 'intents', 'description'] });
    index.addAll(
      this.#packages.map((skillPackage) => ({
        id: skillPackage.folder,
        name: skillPackage.name.replaceAll(/[-_]/g, ' '),
        keywords: skillPackage.routingKeywords.join(' '),
        intents: skillPackage.intents.join(' '),
        description: skillPackage.description,
      })),
    );
    return index;
  }
}

/**
 * The `skill_search` tool (§9): finds packages by name, description, `routing_keywords` and
 * `intents` and answers `{ results: [{ skill, tools, description, score, loaded }] }`, best first.
 * Level `sandboxed`: it reads the listing only.
 */
export function skillSearchSkill(search: (query: string, limit: number) => Promise<SkillSearchResult[]>): SkillSpec {
  return defineSkill<SkillSearchArguments>({
    name: SKILL_SEARCH_TOOL_NAME,
    description:
      'Find installed skill packages for a task by words (name, description, keywords, intents; prefix and fuzzy matching). ' +
      'Answers the best matches first with the tools to call: a tool listed as [GHOST] or not listed at all loads when called.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'What the task is about, in a few words.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, default: DEFAULT_SEARCH_RESULTS, description: 'Most results.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    readOnly: true,
    destructive: false,
    create:
      () =>
      async ({ query, limit = DEFAULT_SEARCH_RESULTS }) => {
        const results = await search(query, limit);
        return ToolResult.ok(JSON.stringify({ results }, null, 2), { results: results.map((result) => ({ ...result })) });
      },
  });
}
