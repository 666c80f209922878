import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { STORAGE_LIMITS } from '@shared/constants';
import type { CampaignRow } from '../db/rows/campaigns';

/** Where quick-send header images live, relative to DATA_DIR (campaigns keep this path). */
export const CAMPAIGN_MEDIA_FOLDER = 'media/campaigns';

/** Removes one stored quick-send image; a missing file is not an error. */
export async function removeCampaignMedia(dataDir: string, relativePath: string): Promise<void> {
  const root = path.resolve(dataDir, CAMPAIGN_MEDIA_FOLDER);
  const absolute = path.resolve(dataDir, relativePath);
  if (!absolute.startsWith(root + path.sep)) throw new Error(`not a campaign media path: ${relativePath}`);
  await rm(absolute, { force: true });
}

/**
 * Deletes quick-send header images that no campaign references and that are older than the grace
 * period (a send still being accepted has stored its file but not yet committed its campaign).
 * Such files are left by a refusal or a crash between storing and accepting. Returns the count removed.
 */
export async function sweepOrphanCampaignMedia(db: Knex, dataDir: string, now: Date = new Date()): Promise<number> {
  const folder = path.resolve(dataDir, CAMPAIGN_MEDIA_FOLDER);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const cutoff = now.getTime() - STORAGE_LIMITS.orphanCampaignMediaMinutes * 60_000;
  const candidates: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(folder, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff) candidates.push(name);
  }
  let removed = 0;
  for (let start = 0; start < candidates.length; start += 500) {
    const chunk = candidates.slice(start, start + 500);
    const paths = chunk.map((name) => `${CAMPAIGN_MEDIA_FOLDER}/${name}`);
    const rows = (await db('campaigns').whereIn('headerMediaPath', paths).distinct('headerMediaPath')) as { headerMediaPath: NonNullable<CampaignRow['headerMediaPath']> }[];
    const referenced = new Set(rows.map((row) => row.headerMediaPath));
    for (const relativePath of paths) {
      if (referenced.has(relativePath)) continue;
      await removeCampaignMedia(dataDir, relativePath);
      removed += 1;
    }
  }
  return removed;
}
