import {
  type GetPromptResult,
  type Prompt,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
  type Server,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { type FamilyDocuments, NexusError, NotFoundError } from '@nexus/core';
import type { SkillRegistry } from '@nexus/registry';

/** The capabilities a server serving `registry`'s documents declares: prompts and resources, when its families offer any. */
export function documentCapabilities(registry: SkillRegistry): ServerCapabilities {
  return registry.documents.length > 0 ? { prompts: { listChanged: true }, resources: { listChanged: true } } : {};
}

/** What announces a change of the documents: each instance's own server, or the HTTP handler's notifier. */
export interface DocumentAnnouncer {
  promptsChanged(): void;
  resourcesChanged(): void;
}

/** Calls `announce` after each change of `registry`'s documents (skill packages added, removed, edited); returns a function that stops it. */
export function followDocuments(registry: SkillRegistry, announce: DocumentAnnouncer): () => void {
  const stops = registry.documents.map((documents) =>
    documents.onChange(() => {
      announce.promptsChanged();
      announce.resourcesChanged();
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}

const TEXT_TYPES = /^text\/|[/+](json|xml|yaml|javascript|x-sh)$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A file's bytes as MCP resource contents: text for a textual type that is valid UTF-8, base64 otherwise. */
function contentsOf(uri: string, mimeType: string, bytes: Uint8Array): ReadResourceResult['contents'][number] {
  if (TEXT_TYPES.test(mimeType)) {
    try {
      return { uri, mimeType, text: utf8.decode(bytes) };
    } catch {
      // Not UTF-8 after all: sent as bytes.
    }
  }
  return { uri, mimeType, blob: Buffer.from(bytes).toString('base64') };
}

/** A refusal as the client sees it: invalid params naming what was wrong; anything else goes on as it is. */
function refusal(error: unknown): unknown {
  return NexusError.isInstance(error) ? new ProtocolError(ProtocolErrorCode.InvalidParams, error.message) : error;
}

/** The documents that offer instructions named `name`, or `undefined`. */
async function ownerOf(sources: readonly FamilyDocuments[], name: string): Promise<FamilyDocuments | undefined> {
  for (const source of sources) if ((await source.listInstructions()).some((entry) => entry.name === name)) return source;
  return undefined;
}

/**
 * Serves the documents of the registry's families (`registry.documents`, skill packages') on
 * `server`: each set of instructions as a prompt without arguments (`prompts/get` answers its text
 * as one user message), each file as a resource (`resources/read` reads it through the family,
 * under the registry's policy). Nothing is registered when no family offers documents.
 */
export function serveDocuments(server: Server, registry: SkillRegistry): void {
  const sources = registry.documents;
  if (sources.length === 0) return;

  server.setRequestHandler('prompts/list', async () => {
    const listed = (await Promise.all(sources.map((source) => source.listInstructions()))).flat();
    const prompts = new Map<string, Prompt>();
    for (const { name, description } of listed) if (!prompts.has(name)) prompts.set(name, { name, description });
    return { prompts: [...prompts.values()] };
  });

  server.setRequestHandler('prompts/get', async (request): Promise<GetPromptResult> => {
    const { name } = request.params;
    const source = await ownerOf(sources, name);
    try {
      if (!source) throw new NotFoundError(`No skill package named "${name}" offers instructions.`);
      const description = (await source.listInstructions()).find((entry) => entry.name === name)?.description;
      const text = await source.readInstructions(name);
      return { ...(description ? { description } : {}), messages: [{ role: 'user', content: { type: 'text', text } }] };
    } catch (error) {
      throw refusal(error);
    }
  });

  server.setRequestHandler('resources/list', async () => {
    const files = (await Promise.all(sources.map((source) => source.listFiles()))).flat();
    return { resources: files.map(({ uri, name, mimeType, size }): Resource => ({ uri, name, mimeType, size })) };
  });

  server.setRequestHandler('resources/read', async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    let missing: unknown;
    for (const source of sources) {
      try {
        const { mimeType, bytes } = await source.readFile(uri, registry.services);
        return { contents: [contentsOf(uri, mimeType, bytes)] };
      } catch (error) {
        if (!NotFoundError.isInstance(error)) throw refusal(error);
        missing = error;
      }
    }
    throw new ResourceNotFoundError(uri, missing instanceof Error ? missing.message : `${uri} is not offered.`);
  });
}
