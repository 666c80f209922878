import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Download, Upload } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { CONTACT_ATTRIBUTE_TYPES, type TContactAttributeType } from '@shared/schemas/contacts';
import { errorText } from '../../api/errors';
import { contactKeys, contactsApi } from '../../api/contacts';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { columnNames, guessMapping, invalidRowsCsv, mappingProblem, splitTags, type ColumnUse, type ImportMapping } from '../../lib/contacts/contactImport';
import { importContacts, readHeader, type ImportProgress, type ImportResult } from '../../lib/contacts/importRunner';
import { saveFile } from '../../platform/files';

const s = messages.contactScreens;
const muted = 'text-sm text-slate-500 dark:text-slate-400';
const USES = ['ignore', 'phone', 'name', 'tags', 'attribute'] as const;

interface OpenedFile {
  file: File;
  header: string[];
  sample: string[];
}

/** /user/contacts/import: a CSV or Excel file read on this computer, mapped to contacts and sent in parts. */
export function ContactImportPage() {
  const queryClient = useQueryClient();
  const fileId = useId();
  const tagsId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const known = new Map<string, TContactAttributeType>((attributes.data ?? []).map((a) => [a.name, a.type]));
  const [opened, setOpened] = useState<OpenedFile | null>(null);
  const [mapping, setMapping] = useState<ImportMapping | null>(null);
  const [extraTags, setExtraTags] = useState('');
  const [existing, setExisting] = useState<'update' | 'skip'>('update');
  const [reading, setReading] = useState(false);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const handleFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReading(true);
    setResult(null);
    setProblem(null);
    try {
      const { header, sample } = await readHeader(file);
      const names = columnNames(header);
      setOpened({ file, header: names, sample });
      setMapping(guessMapping(names, sample, known));
    } catch (error) {
      toast.error(errorText(error, messages.spreadsheets.unreadable));
    } finally {
      setReading(false);
    }
  };

  const setUse = (index: number, use: ColumnUse) => {
    if (!mapping) return;
    // One column holds the number, one the name, one the tags: choosing it again moves it.
    const columns = mapping.columns.map((current, i): ColumnUse => (i !== index && use.kind !== 'attribute' && use.kind !== 'ignore' && current.kind === use.kind ? { kind: 'ignore' } : current));
    columns[index] = use;
    setMapping({ ...mapping, columns });
  };

  const handleImport = async () => {
    if (!opened || !mapping) return;
    const trouble = mappingProblem(mapping);
    if (trouble) {
      setProblem(trouble === 'phone' ? s.phoneColumnRequired : fillMessage(messages.contacts.attributeNameInvalid, { max: CONTACTS.attributeNameMaxLength }));
      return;
    }
    setProblem(null);
    setProgress({ read: 0, done: 0 });
    try {
      const finished = await importContacts(
        opened.file,
        { ...mapping, extraTags: splitTags(extraTags) },
        existing,
        new Set(known.keys()),
        { defineAttribute: contactsApi.defineAttribute, bulk: contactsApi.bulk },
        setProgress,
      );
      setResult(finished);
    } catch (error) {
      setProblem(fillMessage(s.importFailed, { error: errorText(error, messages.common.unknownError) }));
    } finally {
      setProgress(null);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    }
  };

  const handleDownload = () => {
    if (!opened || !result) return;
    saveFile(new Blob([invalidRowsCsv(opened.header, result.invalid)], { type: 'text/csv' }), s.invalidRowsFile);
  };

  const reset = () => {
    setOpened(null);
    setMapping(null);
    setResult(null);
    setProblem(null);
  };

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link to="/user/contacts" className="inline-flex items-center gap-1 text-sm text-emerald-700 hover:underline dark:text-emerald-400">
          <ArrowLeft className="size-4" aria-hidden="true" />
          {s.back}
        </Link>
        <h2 className="mt-2 text-2xl font-bold tracking-tight">{s.importTitle}</h2>
        <p className={muted}>{fillMessage(s.importIntro, { max: formatIndianNumber(CONTACTS.bulkMax) })}</p>
      </div>

      {result ? (
        <Card>
          <CardHeader>
            <CardTitle>{s.resultTitle}</CardTitle>
            <CardDescription role="status">
              {fillMessage(s.result, {
                created: formatIndianNumber(result.created),
                updated: formatIndianNumber(result.updated),
                skipped: formatIndianNumber(result.skipped),
                invalid: formatIndianNumber(result.invalid.length),
              })}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-2">
            {result.invalid.length > 0 ? (
              <Button type="button" variant="outline" onClick={handleDownload}>
                <Download aria-hidden="true" />
                {s.downloadInvalid}
              </Button>
            ) : null}
            <Button type="button" variant="outline" onClick={reset}>
              {s.importAnother}
            </Button>
            <Link to="/user/contacts" className="self-center text-sm text-emerald-700 underline dark:text-emerald-400">
              {s.back}
            </Link>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardContent className="grid gap-4 pt-6">
            <div className="grid gap-1.5">
              <Label htmlFor={fileId}>{s.fileLabel}</Label>
              <input
                ref={fileInput}
                id={fileId}
                type="file"
                accept=".csv,.xlsx,.xls,.gz,text/csv"
                className="text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100"
                onChange={(e) => void handleFile(e)}
                disabled={reading || progress !== null}
              />
              {reading ? <p className={muted}>{s.readingFile}</p> : null}
            </div>

            {opened && mapping ? (
              <>
                <fieldset className="grid gap-2">
                  <legend className="mb-2 text-sm font-semibold">{s.mappingTitle}</legend>
                  <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
                    <table className="w-full text-left text-sm">
                      <thead className="bg-slate-50 text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
                        <tr>
                          <th scope="col" className="px-3 py-2">
                            {s.columnLabel}
                          </th>
                          <th scope="col" className="px-3 py-2">
                            {s.sampleLabel}
                          </th>
                          <th scope="col" className="px-3 py-2">
                            {s.useAsLabel}
                          </th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                        {opened.header.map((column, i) => {
                          const use = mapping.columns[i] ?? { kind: 'ignore' };
                          return (
                            <tr key={`${column}-${i}`}>
                              <th scope="row" className="px-3 py-2 font-medium">
                                {column}
                              </th>
                              <td className="px-3 py-2 text-slate-600 dark:text-slate-300">{opened.sample[i] ?? ''}</td>
                              <td className="px-3 py-2">
                                <div className="flex flex-wrap gap-2">
                                  <NativeSelect
                                    aria-label={`${s.useAsLabel}: ${column}`}
                                    value={use.kind}
                                    onChange={(e) => {
                                      const kind = e.target.value as (typeof USES)[number];
                                      setUse(i, kind === 'attribute' ? guessMapping([column], [opened.sample[i] ?? ''], known).columns[0] ?? { kind: 'ignore' } : { kind });
                                    }}
                                  >
                                    {USES.map((kind) => (
                                      <option key={kind} value={kind}>
                                        {s.useAs[kind]}
                                      </option>
                                    ))}
                                  </NativeSelect>
                                  {use.kind === 'attribute' ? (
                                    <>
                                      <Input
                                        aria-label={fillMessage(s.attributeNameLabel, { column })}
                                        className="w-40"
                                        value={use.name}
                                        onChange={(e) => setUse(i, { kind: 'attribute', name: e.target.value, type: known.get(e.target.value) ?? use.type })}
                                      />
                                      <NativeSelect
                                        aria-label={fillMessage(s.attributeTypeLabel, { column })}
                                        value={use.type}
                                        disabled={known.has(use.name)}
                                        onChange={(e) => setUse(i, { ...use, type: e.target.value as TContactAttributeType })}
                                      >
                                        {CONTACT_ATTRIBUTE_TYPES.map((type) => (
                                          <option key={type} value={type}>
                                            {s.attributeTypes[type]}
                                          </option>
                                        ))}
                                      </NativeSelect>
                                    </>
                                  ) : null}
                                </div>
                              </td>
                            </tr>
                          );
                        })}
                      </tbody>
                    </table>
                  </div>
                </fieldset>
                <div className="grid gap-4 sm:grid-cols-2">
                  <div className="grid gap-1.5">
                    <Label htmlFor={tagsId}>{s.extraTagsLabel}</Label>
                    <Input id={tagsId} value={extraTags} onChange={(e) => setExtraTags(e.target.value)} />
                    <p className="text-xs text-slate-500 dark:text-slate-400">{s.tagsHint}</p>
                  </div>
                  <fieldset className="grid gap-1.5">
                    <legend className="mb-1.5 text-sm font-medium">{s.existingLabel}</legend>
                    {(['update', 'skip'] as const).map((mode) => (
                      <label key={mode} className="flex items-center gap-2 text-sm">
                        <input type="radio" name="existing" value={mode} checked={existing === mode} onChange={() => setExisting(mode)} />
                        {s.existing[mode]}
                      </label>
                    ))}
                  </fieldset>
                </div>
                {problem ? (
                  <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                    {problem}
                  </p>
                ) : null}
                {progress ? (
                  <div className="grid gap-1" role="status">
                    <progress className="w-full" max={Math.max(progress.read, 1)} value={progress.done} />
                    <p className={muted}>{fillMessage(s.progress, { done: formatIndianNumber(progress.done), total: formatIndianNumber(progress.read) })}</p>
                  </div>
                ) : null}
                <Button type="button" className="justify-self-start" onClick={() => void handleImport()} disabled={progress !== null}>
                  <Upload aria-hidden="true" />
                  {s.startImport}
                </Button>
              </>
            ) : null}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
