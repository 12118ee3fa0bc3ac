import { constants } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type FamilyDocuments,
  type FamilyFile,
  type FamilyFileContent,
  type FamilyInstructions,
  NexusError,
  NotFoundError,
  openVerified,
  PathSecurityError,
  type ServiceContainer,
  validatePath,
} from '@nexus/core';
import { listPackageFiles } from './package-hash.js';
import type { IndexedSkillPackage } from './package-index.js';
import { readPackageInstructions } from './package-instructions.js';

/** The URI scheme of a package's files: `skill://<package>/<path inside its folder>`. */
export const SKILL_URI_SCHEME = 'skill:';
/** The folders of a package whose files are offered: what the standard's instructions point the model to. */
export const DOCUMENT_FOLDERS: readonly string[] = ['references', 'assets'];
/** Largest package file read as a document, in bytes (as for `SKILL.md`); a larger one is refused unread. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** What the documents need of a package. */
export type DocumentedPackage = Pick<IndexedSkillPackage, 'name' | 'description' | 'folder' | 'skillFile' | 'trusted' | 'hiddenFromModel'>;

/** Where the documents find the packages in effect, and hear that they changed. */
export interface DocumentSource {
  packages(): readonly DocumentedPackage[];
  onChange(listener: () => void): () => void;
}

/** The packages whose documents are offered: trusted ones the model may use (not `disable-model-invocation`). */
function offered(source: DocumentSource): DocumentedPackage[] {
  return source.packages().filter((skillPackage) => skillPackage.trusted && !skillPackage.hiddenFromModel);
}

function uriOf(name: string, path: string): string {
  return `${SKILL_URI_SCHEME}//${encodeURIComponent(name)}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The package named in `uri` and the segments of the path after it; refuses a segment that could leave the folder. */
function parseUri(uri: string): { name: string; segments: string[] } {
  const prefix = `${SKILL_URI_SCHEME}//`;
  if (!uri.startsWith(prefix)) throw new NotFoundError(`${uri} is not a skill package file (${prefix}<package>/<path>).`);
  const [name = '', ...segments] = uri
    .slice(prefix.length)
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw new NotFoundError(`${uri} is not a valid URI.`);
      }
    });
  const bad = segments.find((segment) => segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment));
  if (bad !== undefined) throw new PathSecurityError({ path: uri, reason: 'it leaves the skill package folder or is not a plain path' });
  return { name, segments };
}

/** The media type of `path`, by its extension (the table is loaded on first use, not with the listing). */
async function mimeTypeOf(path: string): Promise<string> {
  const { lookup } = await import('mrmime');
  return lookup(path) ?? 'application/octet-stream';
}

async function listFiles(skillPackage: DocumentedPackage): Promise<FamilyFile[]> {
  const files = await listPackageFiles(skillPackage.folder).catch(() => []);
  const documents = files.filter((file) => DOCUMENT_FOLDERS.some((folder) => file.startsWith(`${folder}/`)));
  const listed = await Promise.all(
    documents.map(async (path) => {
      const info = await lstat(join(skillPackage.folder, path)).catch(() => undefined);
      // Links are not listed: a read follows them only as far as the package folder.
      if (!info?.isFile()) return [];
      return [{ uri: uriOf(skillPackage.name, path), name: path, mimeType: await mimeTypeOf(path), size: info.size }];
    }),
  );
  return listed.flat();
}

/**
 * Reads `path` of a package as the agent reads a package folder it was granted: the folder the only
 * root (read-only), the agent's blocked paths refused, symlinks resolved and kept inside, hard
 * links refused, opened without following a link planted after the check, and at most
 * {@link MAX_DOCUMENT_BYTES}.
 */
async function readFile(
  skillPackage: DocumentedPackage,
  uri: string,
  path: string,
  services: ServiceContainer,
): Promise<FamilyFileContent> {
  const real = await validatePath(join(skillPackage.folder, path), {
    cwd: skillPackage.folder,
    allowedPaths: [skillPackage.folder],
    blockedPaths: services.getBlockedPaths(),
    mustExist: true,
  }).catch((error: unknown) => {
    // Named by its URI: the client is not told where the package or a link's target is.
    if (PathSecurityError.isInstance(error))
      throw new PathSecurityError({ path: uri, reason: 'it leads outside the skill package folder, or to a blocked path', cause: error });
    throw new NotFoundError(`${uri} does not exist.`, { cause: error });
  });
  const handle = await openVerified(real, constants.O_RDONLY);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotFoundError(`${uri} is not a regular file.`);
    if (info.size > MAX_DOCUMENT_BYTES)
      throw new NexusError(`${uri} is ${info.size} bytes; at most ${MAX_DOCUMENT_BYTES} are read.`, {
        code: 'FILE_TOO_LARGE',
        kind: 'invalid_input',
      });
    const bytes = new Uint8Array(info.size);
    const { bytesRead } = await handle.read(bytes, 0, info.size, 0);
    return { uri, mimeType: await mimeTypeOf(path), bytes: bytes.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}

/**
 * The documents of skill packages (`SkillFamily.documents`): each trusted package the model may use
 * offers its instructions (the `SKILL.md` body, read afresh) and its `references/` and `assets/`
 * files as `skill://<package>/<path>`. Nothing is granted or recorded; untrusted and
 * `disable-model-invocation` packages offer nothing.
 */
export function packageDocuments(source: DocumentSource): FamilyDocuments {
  const find = (name: string, what: string) => {
    const skillPackage = offered(source).find((candidate) => candidate.name === name);
    if (!skillPackage) throw new NotFoundError(`No skill package named "${name}" offers ${what}.`);
    return skillPackage;
  };
  return {
    listInstructions: async (): Promise<FamilyInstructions[]> => offered(source).map(({ name, description }) => ({ name, description })),
    readInstructions: async (name) => (await readPackageInstructions(find(name, 'instructions'))).body,
    listFiles: async () => (await Promise.all(offered(source).map(listFiles))).flat(),
    readFile: async (uri, services) => {
      const { name, segments } = parseUri(uri);
      const skillPackage = find(name, 'files');
      if (segments.length < 2 || !DOCUMENT_FOLDERS.includes(segments[0] as string))
        throw new NotFoundError(`${uri} is not one of the package's ${DOCUMENT_FOLDERS.join(' or ')} files.`);
      return readFile(skillPackage, uri, segments.join('/'), services);
    },
    onChange: (listener) => source.onChange(listener),
  };
}
