import { constants, existsSync } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { isWithin, type JsonObject } from '@nexus/core';

/** The template that replaces a successful result's text. */
export const SUCCESS_TEMPLATE = 'command_result.j2';
/** The template that replaces a failed result's text. */
export const FAILURE_TEMPLATE = 'error_message.j2';
const MAX_TEMPLATE_BYTES = 256 * 1024;

/** What a result template sees. */
export interface TemplateContext {
  skill: string;
  command: string;
  state: string;
  data: JsonObject;
  meta: JsonObject;
  stdout: string;
  stderr: string;
  exit_code: number | null;
}

/** Reads `name` from `directory` when it is a regular file really inside it (a symlink out is ignored), bounded in size. */
async function readTemplate(directory: string, name: string): Promise<string | undefined> {
  // Most packages have no templates: a plain existence check spares two failing realpath calls per result.
  if (!existsSync(join(directory, name))) return undefined;
  let real: string;
  try {
    const [folder, file] = await Promise.all([realpath(directory), realpath(join(directory, name))]);
    if (!isWithin(file, folder)) return undefined;
    real = file;
  } catch {
    return undefined;
  }
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_TEMPLATE_BYTES) return undefined;
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * seed 004's cascading templates: the text of a result rendered from `command_result.j2` (a
 * failure's from `error_message.j2`), looked up in the user's override folder first, then the
 * package's `templates/`. Jinja2 syntax through `@huggingface/jinja`, which has no file access at
 * all (no `include`, `import` or `extends` reach a file) and no way to reach JavaScript objects'
 * prototypes. `undefined` when neither folder has the template; a template that fails to render
 * gives the default text with the error appended.
 */
export async function renderResultTemplate(
  folders: readonly string[],
  success: boolean,
  context: TemplateContext,
  fallback: string,
): Promise<string | undefined> {
  const name = success ? SUCCESS_TEMPLATE : FAILURE_TEMPLATE;
  for (const folder of folders) {
    const source = await readTemplate(folder, name);
    if (source === undefined) continue;
    try {
      const { Template } = await import('@huggingface/jinja');
      return new Template(source).render(context as unknown as Record<string, unknown>);
    } catch (error) {
      return `${fallback}\n  (${join(folder, name)} could not be rendered: ${(error as Error).message})`;
    }
  }
  return undefined;
}
