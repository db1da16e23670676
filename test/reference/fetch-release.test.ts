/**
 * The download path, against a tiny HTTP server on 127.0.0.1 serving the genuine mirror (the only
 * network these tests use).
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReleaseLoadError } from '../../src/reference/errors.ts';
import { loadRelease, type LoadReleaseOptions } from '../../src/reference/load-release.ts';
import { copyMirror, makeTemp, MIRROR_3650, removeTemp } from './release-files.ts';

const TAG = 'v3.65.0-alpha';

/** What the server does, per release path; reset before each test. */
interface Plan {
  failOnce: Set<string>; // answer 503 to the first request
  hang: Set<string>; // never answer
  replace: Map<string, Buffer>; // serve these bytes instead
  requests: string[];
}
let plan: Plan;
let server: Server;
let baseUrl: string;
let temp: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const prefix = `/IMGTHLA/${TAG}/`;
    const url = request.url ?? '';
    if (!url.startsWith(prefix)) return void response.writeHead(404).end();
    const file = decodeURIComponent(url.slice(prefix.length));
    plan.requests.push(file);
    if (plan.hang.has(file)) return;
    if (plan.failOnce.delete(file)) return void response.writeHead(503).end('try again');
    const replaced = plan.replace.get(file);
    const body = replaced ? Promise.resolve(replaced) : readFile(path.join(MIRROR_3650, ...file.split('/')));
    body.then(
      (content) => response.writeHead(200, { 'content-type': 'text/plain' }).end(content),
      () => response.writeHead(404).end('Not Found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/IMGTHLA`;
  temp = await makeTemp();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await removeTemp(temp);
});

beforeEach(() => {
  plan = { failOnce: new Set(), hang: new Set(), replace: new Map(), requests: [] };
});

function online(cacheDir: string, extra: LoadReleaseOptions = {}): LoadReleaseOptions {
  return { tag: TAG, baseUrl, cacheDir, offline: false, fetchTimeoutMs: 10_000, fetchRetries: 2, retryDelayMs: 10, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the load to fail');
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

describe('loadRelease downloading into the cache', () => {
  const cacheDir = () => path.join(temp, 'cache-main');

  it('downloads every file, retrying a failed request, and caches them', async () => {
    plan.failOnce.add('Allelelist.txt');
    const { tables, report } = await loadRelease(online(cacheDir()));
    expect(tables.alleles).toHaveLength(46_652);
    expect(tables.missingOptional).toEqual(['Allelelist_history.txt']); // the server answers 404
    expect(plan.requests.filter((file) => file === 'Allelelist.txt')).toHaveLength(2);
    expect(report.files.find((f) => f.file === 'Allelelist.txt')).toMatchObject({
      origin: 'fetched',
      location: `${baseUrl}/${TAG}/Allelelist.txt`,
      attempts: 2,
      md5: 'b9b22a0394436db7362ba6aa85a05855',
    });
    expect(report.files.every((f) => f.origin === 'fetched')).toBe(true);
    // Complete files only: no temporary leftovers, and byte-identical to the release.
    expect(await listFiles(cacheDir())).toEqual(
      [
        'Allele_status.txt',
        'Allelelist.txt',
        'Deleted_alleles.txt',
        'Nomenclature_2009.txt',
        'md5checksum.txt',
        'wmda/hla_nom_g.txt',
        'wmda/hla_nom_p.txt',
        'wmda/md5checksum.txt',
        'wmda/rel_dna_ser.txt',
        'wmda/rel_ser_ser.txt',
      ].sort(),
    );
    const cached = await readFile(path.join(cacheDir(), 'wmda', 'rel_dna_ser.txt'));
    expect(cached.equals(await readFile(path.join(MIRROR_3650, 'wmda', 'rel_dna_ser.txt')))).toBe(true);
  });

  it('starts again from the cache alone, offline', async () => {
    const { tables, report } = await loadRelease({ tag: TAG, cacheDir: cacheDir(), offline: true });
    expect(plan.requests).toEqual([]);
    expect(tables.alleles).toHaveLength(46_652);
    expect(report.files.every((f) => f.origin === 'cache')).toBe(true);
  });

  it('refuses a damaged cached file, naming it and its path', async () => {
    const location = path.join(cacheDir(), 'wmda', 'rel_dna_ser.txt');
    const original = await readFile(location);
    const damaged = Buffer.from(original);
    damaged[damaged.length - 2] ^= 1;
    await writeFile(location, damaged);
    try {
      const error = await rejection(loadRelease({ tag: TAG, cacheDir: cacheDir(), offline: true }));
      expect((error as ReleaseLoadError).code).toBe('checksum_mismatch');
      expect(error.message).toMatch(/^wmda\/rel_dna_ser\.txt: MD5 [0-9a-f]{32} of .* differs from 9abb2224d392cdec07b79bd5be1c902a listed by release v3\.65\.0-alpha/);
      expect(error.message).toContain(location);
    } finally {
      await writeFile(location, original);
    }
  });
});

describe('loadRelease refusing bad downloads', () => {
  it('refuses a download whose MD5 is wrong and does not cache it', async () => {
    const cacheDir = path.join(temp, 'cache-bad-download');
    const genuine = await readFile(path.join(MIRROR_3650, 'Deleted_alleles.txt'), 'utf8');
    plan.replace.set('Deleted_alleles.txt', Buffer.from(genuine.replace('(July 2001)', '(July 2002)')));
    const error = await rejection(loadRelease(online(cacheDir)));
    expect(error).toBeInstanceOf(ReleaseLoadError);
    expect((error as ReleaseLoadError).code).toBe('checksum_mismatch');
    expect(error.message).toMatch(/^Deleted_alleles\.txt: MD5 [0-9a-f]{32} of http:\/\/127\.0\.0\.1:\d+\/IMGTHLA\/v3\.65\.0-alpha\/Deleted_alleles\.txt differs from e2f044117e14db8e3c67bb870cc652ae/);
    expect(await listFiles(cacheDir)).not.toContain('Deleted_alleles.txt');
  });

  it('gives up after the retries when a request times out', async () => {
    const cacheDir = path.join(temp, 'cache-timeout');
    plan.hang.add('wmda/rel_ser_ser.txt');
    const error = await rejection(loadRelease(online(cacheDir, { fetchTimeoutMs: 300, fetchRetries: 1 })));
    expect((error as ReleaseLoadError).code).toBe('fetch_failed');
    expect(error.message).toMatch(/^could not download wmda\/rel_ser_ser\.txt from .*: timed out after 300 ms \(after 2 attempts\)$/);
    expect(plan.requests.filter((file) => file === 'wmda/rel_ser_ser.txt')).toHaveLength(2);
  });

  it('refuses a required file the server does not have', async () => {
    const cacheDir = path.join(temp, 'cache-404');
    const mirror = await copyMirror('3.65.0');
    try {
      await rm(path.join(mirror, 'Nomenclature_2009.txt'));
      // Everything under `<base>/missing/` is a 404 on this server.
      const error = await rejection(loadRelease(online(cacheDir, { dataDir: mirror, baseUrl: `${baseUrl}/missing` })));
      expect((error as ReleaseLoadError).code).toBe('missing_file');
      expect(error.message).toMatch(/^required release file Nomenclature_2009\.txt of v3\.65\.0-alpha is missing: not in mirror .*, cache .*, and http:\/\/127\.0\.0\.1:\d+\/IMGTHLA\/missing\/v3\.65\.0-alpha\/Nomenclature_2009\.txt does not exist$/);
    } finally {
      await removeTemp(mirror);
    }
  });
});

describe('loadRelease completing a mirror from the network', () => {
  it('starts without an optional file whose download fails, naming it as missing', async () => {
    const cacheDir = path.join(temp, 'cache-optional-down');
    const mirror = await copyMirror('3.65.0');
    try {
      await rm(path.join(mirror, 'Allele_status.txt'));
      plan.hang.add('Allele_status.txt');
      plan.hang.add('Allelelist_history.txt');
      const { tables, report } = await loadRelease(online(cacheDir, { dataDir: mirror, fetchTimeoutMs: 200, fetchRetries: 0 }));
      expect(tables.alleles).toHaveLength(46_652);
      expect(tables.alleleStatus).toBeNull();
      expect([...tables.missingOptional].sort()).toEqual(['Allele_status.txt', 'Allelelist_history.txt']);
      expect(report.warnings.join('\n')).toMatch(/optional could not download Allele_status\.txt .*timed out/);
    } finally {
      await removeTemp(mirror);
    }
  });

  it('fetches only what the mirror lacks', async () => {
    const cacheDir = path.join(temp, 'cache-partial');
    const mirror = await copyMirror('3.65.0');
    try {
      await rm(path.join(mirror, 'Allele_status.txt'));
      const { tables, report } = await loadRelease(online(cacheDir, { dataDir: mirror }));
      expect(tables.alleleStatus).toHaveLength(46_652);
      expect(tables.missingOptional).toEqual(['Allelelist_history.txt']);
      const origins = Object.fromEntries(report.files.map((f) => [f.file, f.origin]));
      expect(origins['Allele_status.txt']).toBe('fetched');
      expect(Object.entries(origins).filter(([, origin]) => origin !== 'mirror').map(([file]) => file)).toEqual(['Allele_status.txt']);
      expect(plan.requests.sort()).toEqual(['Allele_status.txt', 'Allelelist_history.txt']);
      expect(await listFiles(cacheDir)).toEqual(['Allele_status.txt']);
    } finally {
      await removeTemp(mirror);
    }
  });
});
