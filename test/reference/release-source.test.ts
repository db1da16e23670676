import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReleaseLoadError } from '../../src/reference/errors.ts';
import { releaseSourceFromEnv, resolveMirrorDir, versionFromTag } from '../../src/reference/release-source.ts';
import { MIRROR_3580, MIRROR_3650, SHARED_IMGTHLA } from './release-files.ts';

describe('versionFromTag', () => {
  it('strips the v and the suffix', () => {
    expect(versionFromTag('v3.65.0-alpha')).toBe('3.65.0');
    expect(versionFromTag('v3.58.0-alpha')).toBe('3.58.0');
    expect(versionFromTag('3.65.0')).toBe('3.65.0');
    expect(versionFromTag('3580')).toBe('3.58.0');
  });

  it('refuses a tag that names no release', () => {
    for (const tag of ['Latest', 'main', 'v3.65', '']) expect(() => versionFromTag(tag)).toThrow(ReleaseLoadError);
  });
});

describe('releaseSourceFromEnv', () => {
  it('has the documented defaults', () => {
    expect(releaseSourceFromEnv({}, '/srv/app')).toEqual({
      tag: 'v3.65.0-alpha',
      dataDir: null,
      cacheDir: '/srv/app/.cache/imgthla/v3.65.0-alpha',
      baseUrl: 'https://raw.githubusercontent.com/ANHIG/IMGTHLA',
      offline: false,
      fetchTimeoutMs: 30_000,
      fetchRetries: 3,
      retryDelayMs: 500,
    });
  });

  it('reads every HLA_SERVICE_ variable', () => {
    const source = releaseSourceFromEnv(
      {
        HLA_SERVICE_TAG: 'v3.58.0-alpha',
        HLA_SERVICE_DATA_DIR: '../shared/imgthla',
        HLA_SERVICE_CACHE_DIR: '/var/cache/hla',
        HLA_SERVICE_DATA_BASE_URL: 'http://mirror.example/IMGTHLA',
        HLA_SERVICE_OFFLINE: 'true',
        HLA_SERVICE_FETCH_TIMEOUT_MS: '5000',
        HLA_SERVICE_FETCH_RETRIES: '0',
      },
      '/srv/app',
    );
    expect(source).toMatchObject({
      tag: 'v3.58.0-alpha',
      dataDir: '/srv/shared/imgthla',
      cacheDir: '/var/cache/hla/v3.58.0-alpha', // one sub-folder per tag: tags never share checksum lists
      baseUrl: 'http://mirror.example/IMGTHLA',
      offline: true,
      fetchTimeoutMs: 5000,
      fetchRetries: 0,
    });
  });

  it('refuses unreadable values', () => {
    expect(() => releaseSourceFromEnv({ HLA_SERVICE_OFFLINE: 'maybe' })).toThrow(/HLA_SERVICE_OFFLINE/);
    expect(() => releaseSourceFromEnv({ HLA_SERVICE_FETCH_RETRIES: '-1' })).toThrow(/HLA_SERVICE_FETCH_RETRIES/);
    expect(() => releaseSourceFromEnv({ HLA_SERVICE_TAG: 'Latest' })).toThrow(/Latest/);
  });
});

describe('resolveMirrorDir', () => {
  it('uses a folder holding one release directly', async () => {
    expect(await resolveMirrorDir(MIRROR_3650, '3.65.0', 'v3.65.0-alpha')).toBe(MIRROR_3650);
  });

  it('picks the release sub-folder of a multi-release folder', async () => {
    expect(await resolveMirrorDir(SHARED_IMGTHLA, '3.65.0', 'v3.65.0-alpha')).toBe(MIRROR_3650);
    expect(await resolveMirrorDir(SHARED_IMGTHLA, '3.58.0', 'v3.58.0-alpha')).toBe(MIRROR_3580);
    // A release it does not hold: its (absent) sub-folder, never another release's files.
    expect(await resolveMirrorDir(SHARED_IMGTHLA, '3.66.0', 'v3.66.0-alpha')).toBe(path.join(SHARED_IMGTHLA, '3.66.0'));
  });

  it('refuses a directory that does not exist', async () => {
    await expect(resolveMirrorDir(path.join(SHARED_IMGTHLA, 'nowhere'), '3.65.0', 'v3.65.0-alpha')).rejects.toThrow(/does not exist/);
  });
});
