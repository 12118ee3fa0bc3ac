import type { ServiceContainer } from './service-container.js';

/** Instructions a family offers besides its tools — a skill package's `SKILL.md` body; MCP serves each as a prompt. */
export interface FamilyInstructions {
  /** Unique within the family (a skill package's name). */
  readonly name: string;
  readonly description: string;
}

/** A file a family offers to read — a skill package's `references/` or `assets/` file; MCP serves each as a resource. */
export interface FamilyFile {
  /** Where it is read from, e.g. `skill://<package>/references/guide.md`. */
  readonly uri: string;
  /** Its path inside what offers it (`references/guide.md`). */
  readonly name: string;
  readonly mimeType: string;
  /** In bytes, when it was listed. */
  readonly size: number;
}

/** What {@link FamilyDocuments.readFile} read. */
export interface FamilyFileContent {
  readonly uri: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
}

/**
 * Instructions and files a family offers besides its tools, read without side effects: listing and
 * reading them grants no path and changes no policy. Reads check what the agent's own reading would
 * (the `services` given: blocked paths, symlinks, size). A family offers it as
 * {@link SkillFamily.documents}; a registry's `documents` holds those of the families it uses.
 */
export interface FamilyDocuments {
  /** The instructions offered now. */
  listInstructions(): Promise<FamilyInstructions[]>;
  /** The text of the instructions named `name`; a `NotFoundError` when none is offered by that name. */
  readInstructions(name: string): Promise<string>;
  /** The files offered now. */
  listFiles(): Promise<FamilyFile[]>;
  /**
   * Reads the file at `uri` under the agent's policy in `services`: a `NotFoundError` for a URI it
   * does not offer, a `PathSecurityError` for one that leads outside (`..`, a symlink, a blocked
   * path), a `NexusError` with code `FILE_TOO_LARGE` for one over the family's size limit.
   */
  readFile(uri: string, services: ServiceContainer): Promise<FamilyFileContent>;
  /** Calls `listener` after what is offered may have changed; returns a function that stops it. */
  onChange(listener: () => void): () => void;
}
