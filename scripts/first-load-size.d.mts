/** Types of scripts/first-load-size.mjs (a plain module so the build runs it without tsx). */
export const FIRST_LOAD_CEILING_KB: number;
export interface FirstLoadMeasurement {
  files: { file: string; bytes: number; gzipBytes: number }[];
  gzipBytes: number;
  kb: number;
  ratio: number;
}
export function firstLoadFiles(html: string): string[];
export function measureFirstLoad(directory: string): FirstLoadMeasurement;
export function firstLoadLine(measurement: FirstLoadMeasurement): string;
