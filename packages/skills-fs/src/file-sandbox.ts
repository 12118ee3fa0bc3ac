import type { ConfirmFunction, ServiceContainer } from '@nexus/core';
import { FileOpener } from './file-opener.js';
import { type ResolvedFileSkillOptions, resolveFileSkillOptions } from './file-skill-options.js';
import { PathAuthorizer } from './path-authorizer.js';
import { StaleWriteGuard } from './stale-write-guard.js';

/**
 * What a file skill works with during one call, one part per job: {@link paths} approves paths
 * (and shows them), {@link opener} opens what was approved, {@link staleWrites} guards writes
 * against files the agent has not read. `defineFileSkill` makes one per call, so a write outside
 * the working directory asks that call's own `confirm`.
 */
export class FileSandbox {
  /** The agent's services. */
  readonly services: ServiceContainer;
  /** The skill's name, whose per-tool roots apply. */
  readonly tool: string;
  /** Approves paths for this tool and call, and shows them to the LLM. */
  readonly paths: PathAuthorizer;
  /** Opens approved files and directories through core's verified opens. */
  readonly opener: FileOpener;
  /** Refuses writes over files the agent has not read as they are now, and records what it saw. */
  readonly staleWrites: StaleWriteGuard;

  /** The sandbox of one call of `tool`; `confirm` is who to ask during it (`context.confirm`). */
  constructor(services: ServiceContainer, tool: string, confirm?: ConfirmFunction) {
    this.services = services;
    this.tool = tool;
    this.paths = new PathAuthorizer(services, tool, confirm);
    this.opener = new FileOpener(this.paths);
    this.staleWrites = new StaleWriteGuard(services, this.paths);
  }

  #options: ResolvedFileSkillOptions | undefined;

  /** The family's settings (the `fileSkillOptions` service with defaults), resolved once per call. */
  get options(): ResolvedFileSkillOptions {
    this.#options ??= resolveFileSkillOptions(this.services);
    return this.#options;
  }
}
