/**
 * An upload's files under `DATA_DIR/uploads/<id>/`: `part-<n>` for each part that arrived whole,
 * then `file` once the parts were put together and their checksum matched. Every file is written
 * under a temporary name and renamed into place, so a part (or the file) either is there whole or
 * not at all, and sending a part again replaces it in one step.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { finished, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const PART = /^part-(\d+)$/;
/** Upload ids are UUIDs (the service makes them); anything else never becomes a path. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A part carried more or fewer bytes than it must. */
export class PartSizeError extends Error {
  constructor(readonly received: number) {
    super(`part has the wrong size (${received} bytes or more)`);
  }
}

export class UploadFiles {
  constructor(readonly root: string) {}

  dir(id: string): string {
    if (!ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(this.root, id);
  }

  /** The assembled file (there once the upload is complete). */
  filePath(id: string): string {
    return path.join(this.dir(id), 'file');
  }

  private partPath(id: string, n: number): string {
    return path.join(this.dir(id), `part-${n}`);
  }

  /**
   * Streams one part to disk, never holding it in memory. Refuses it (PartSizeError) as soon as
   * it passes `expectedBytes`, or at its end when shorter; a refused or broken part leaves nothing.
   */
  async writePart(id: string, n: number, body: Readable, expectedBytes: number): Promise<number> {
    const dir = this.dir(id);
    await mkdir(dir, { recursive: true });
    const temporary = path.join(dir, `part-${n}.${randomUUID()}.tmp`);
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        if (received > expectedBytes) callback(new PartSizeError(received));
        else callback(null, chunk);
      },
    });
    // The body is piped rather than put in the pipeline: a pipeline destroys its source on error,
    // and destroying a request destroys its socket, so the refusal could never be answered.
    body.pipe(counter);
    const stopWatching = finished(body, (error) => {
      if (error) counter.destroy(error);
    });
    try {
      await pipeline(counter, createWriteStream(temporary, { flags: 'wx' }));
      if (received !== expectedBytes) throw new PartSizeError(received);
      await rename(temporary, this.partPath(id, n));
    } catch (error) {
      body.unpipe(counter);
      await rm(temporary, { force: true });
      throw error;
    } finally {
      stopWatching();
    }
    return received;
  }

  /** The numbers of the parts that arrived whole, in order. */
  async receivedParts(id: string): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(this.dir(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names
      .map((name) => Number(PART.exec(name)?.[1] ?? Number.NaN))
      .filter((n) => Number.isInteger(n))
      .sort((a, b) => a - b);
  }

  /**
   * Puts parts 1..partCount together into a temporary file, hashing as it goes. The caller keeps
   * it (`keepAssembled`) when the digest matches, or drops it (`dropAssembled`).
   */
  async assemble(id: string, partCount: number): Promise<{ temporary: string; sha256: string }> {
    const dir = this.dir(id);
    const temporary = path.join(dir, `file.${randomUUID()}.tmp`);
    const hash = createHash('sha256');
    const partPath = (n: number) => this.partPath(id, n);
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let n = 1; n <= partCount; n += 1) {
        for await (const chunk of createReadStream(partPath(n))) {
          hash.update(chunk as Buffer);
          yield chunk as Buffer;
        }
      }
    }
    try {
      await pipeline(chunks, createWriteStream(temporary, { flags: 'wx' }));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { temporary, sha256: hash.digest('hex') };
  }

  /** Moves an assembled file into place (the parts stay until `removeParts`). */
  async keepAssembled(temporary: string, id: string): Promise<void> {
    await rename(temporary, this.filePath(id));
  }

  /** Deletes the parts once the assembled file is in place and recorded. */
  async removeParts(id: string): Promise<void> {
    const parts = await this.receivedParts(id);
    await Promise.all(parts.map((n) => rm(this.partPath(id, n), { force: true })));
  }

  async dropAssembled(temporary: string): Promise<void> {
    await rm(temporary, { force: true });
  }

  /** The first bytes of the assembled file. */
  async head(id: string, bytes: number): Promise<Buffer> {
    const handle = await open(this.filePath(id), 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async hasFile(id: string): Promise<boolean> {
    try {
      return (await stat(this.filePath(id))).isFile();
    } catch {
      return false;
    }
  }

  /** Deletes an upload's folder; one already gone (another instance's sweep) is fine. */
  async remove(id: string): Promise<void> {
    await rm(this.dir(id), { recursive: true, force: true });
  }

  /** Upload folders on disk last changed before `before` (the sweep's orphans, if no row names them). */
  async foldersOlderThan(before: Date): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const old: string[] = [];
    for (const name of names) {
      if (!ID.test(name)) continue;
      try {
        if ((await stat(path.join(this.root, name))).mtime < before) old.push(name);
      } catch {
        // Removed meanwhile.
      }
    }
    return old;
  }
}
