/**
 * The genuine release files under ../shared/imgthla (CC-BY-ND: read in place, never copied into
 * the project; corrupted copies go to a temp dir under os.tmpdir()).
 */
import { createHash } from 'node:crypto';
import { chmod, cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED_IMGTHLA = fileURLToPath(new URL('../../../shared/imgthla/', import.meta.url));
export const MIRROR_3650 = path.join(SHARED_IMGTHLA, '3.65.0');
export const MIRROR_3580 = path.join(SHARED_IMGTHLA, '3.58.0');
export const HISTORY_3180 = path.join(SHARED_IMGTHLA, 'extra', 'Allelelist_history.3180.txt');

/** Text of a genuine release file, e.g. `releaseText('3.65.0', 'wmda/hla_nom_g.txt')`. */
export function releaseText(version: '3.65.0' | '3.58.0', file: string): string {
  return readFileSync(path.join(SHARED_IMGTHLA, version, ...file.split('/')), 'utf8');
}

/** A writable copy of one release's mirror in a fresh temp dir; remove it with `removeTemp`. */
export async function copyMirror(version: '3.65.0' | '3.58.0'): Promise<string> {
  const root = await makeTemp();
  const dir = path.join(root, version);
  await cp(path.join(SHARED_IMGTHLA, version), dir, { recursive: true });
  await makeWritable(dir);
  return dir;
}

export async function makeTemp(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'hla-reference-test-'));
}

/** Removes the temp dir made by `makeTemp` / `copyMirror` that contains `dir`. */
export async function removeTemp(dir: string): Promise<void> {
  const top = path.relative(os.tmpdir(), dir).split(path.sep)[0];
  if (!top.startsWith('hla-reference-test-')) throw new Error(`refusing to remove ${dir}: not a test temp dir`);
  await rm(path.join(os.tmpdir(), top), { recursive: true, force: true });
}

/** Rewrites a file's entry in the copied release's own MD5 list, as if the release had shipped it. */
export async function fixChecksum(releaseDir: string, file: string): Promise<void> {
  const wmda = file.startsWith('wmda/');
  const listPath = path.join(releaseDir, wmda ? 'wmda' : '', 'md5checksum.txt');
  const name = wmda ? file.slice('wmda/'.length) : file;
  const md5 = createHash('md5').update(await readFile(path.join(releaseDir, ...file.split('/')))).digest('hex');
  const list = await readFile(listPath, 'utf8');
  const entry = `MD5 (${name}) = `;
  if (!list.includes(entry)) throw new Error(`${name} not in ${listPath}`);
  await writeFile(listPath, list.replace(new RegExp(`^MD5 \\(${name.replace(/\./g, '\\.')}\\) = [0-9a-f]{32}$`, 'm'), `${entry}${md5}`));
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await makeWritable(full);
    else await chmod(full, 0o644);
  }
}
