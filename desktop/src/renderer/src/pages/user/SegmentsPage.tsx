import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Save, Send, Trash2, Users, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { CONTACTS } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { SEGMENT_ATTRIBUTE_OPS, type TSegment, type TSegmentAttributeOp } from '@shared/schemas/contacts';
import { errorText } from '../../api/errors';
import { contactKeys, contactsApi } from '../../api/contacts';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { draftToFilter, EMPTY_DRAFT, filterToDraft, type ActivityKind, type SegmentDraft } from '../../lib/contacts/segmentBuilder';
import { useSettled } from '../../hooks/useSettled';

const s = messages.contactScreens;
const ACTIVITY_KINDS: readonly ActivityKind[] = ['replied_within_days', 'read_campaign', 'failed_in_campaign', 'never_messaged'];


function TagsField({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
    </div>
  );
}

/** /user/segments: saved filters over the contacts, built with a live count, renamed and deleted. */
export function SegmentsPage() {
  const queryClient = useQueryClient();
  const nameId = useId();
  const optInId = useId();
  const [selected, setSelected] = useState<TSegment | null>(null);
  const [name, setName] = useState('');
  const [draft, setDraft] = useState<SegmentDraft>(EMPTY_DRAFT);
  const [confirming, setConfirming] = useState(false);
  const segments = useQuery({ queryKey: contactKeys.segments, queryFn: contactsApi.segments });
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const filter = useSettled(draftToFilter(draft), 400);
  const count = useQuery({ queryKey: contactKeys.count(filter), queryFn: () => contactsApi.countFilter(filter), retry: false });

  const open = (segment: TSegment | null) => {
    setSelected(segment);
    setName(segment?.name ?? '');
    setDraft(segment ? filterToDraft(segment.filter) : EMPTY_DRAFT);
  };
  const save = useMutation({
    mutationFn: () => (selected ? contactsApi.updateSegment(selected.id, { name, filter: draftToFilter(draft) }) : contactsApi.createSegment(name, draftToFilter(draft))),
    onSuccess: (saved) => {
      toast.success(fillMessage(s.segmentSaved, { name: saved.name }));
      setSelected(saved);
      void queryClient.invalidateQueries({ queryKey: contactKeys.segments });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const remove = useMutation({
    mutationFn: (id: number) => contactsApi.removeSegment(id),
    onSuccess: () => {
      toast.success(s.segmentDeleted);
      setConfirming(false);
      open(null);
      void queryClient.invalidateQueries({ queryKey: contactKeys.segments });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const patch = (change: Partial<SegmentDraft>) => setDraft((current) => ({ ...current, ...change }));
  const names = (attributes.data ?? []).map((a) => a.name);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-2xl font-bold tracking-tight">{s.segmentsTitle}</h2>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{s.segmentsIntro}</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
        <Card>
          <CardContent className="grid gap-2 pt-6">
            <Button type="button" variant="outline" onClick={() => open(null)}>
              <Plus aria-hidden="true" />
              {s.newSegment}
            </Button>
            {(segments.data ?? []).length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">{s.noSegments}</p> : null}
            <ul className="grid gap-1" aria-label={s.segmentsTitle}>
              {(segments.data ?? []).map((segment) => (
                <li key={segment.id}>
                  <Button type="button" variant={selected?.id === segment.id ? 'secondary' : 'ghost'} className="w-full justify-start" aria-current={selected?.id === segment.id} onClick={() => open(segment)}>
                    {segment.name}
                  </Button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{selected ? selected.name : s.newSegment}</CardTitle>
            <CardDescription role="status" aria-live="polite">
              {count.isError
                ? errorText(count.error, messages.common.unknownError)
                : count.data
                  ? fillMessage(s.segmentCount, { count: formatIndianNumber(count.data.count), opted_out: formatIndianNumber(count.data.opted_out) })
                  : s.counting}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <div className="grid gap-1.5">
              <Label htmlFor={nameId}>{s.segmentNameLabel}</Label>
              <Input id={nameId} value={name} maxLength={CONTACTS.segmentNameMaxLength} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              <TagsField label={s.tagsAnyLabel} value={draft.tagsAny} onChange={(tagsAny) => patch({ tagsAny })} />
              <TagsField label={s.tagsAllLabel} value={draft.tagsAll} onChange={(tagsAll) => patch({ tagsAll })} />
              <TagsField label={s.tagsNoneLabel} value={draft.tagsNone} onChange={(tagsNone) => patch({ tagsNone })} />
            </div>

            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-semibold">{s.attributeConditionsTitle}</legend>
              {draft.attributes.map((condition, i) => {
                const set = (change: Partial<typeof condition>) => patch({ attributes: draft.attributes.map((c, j) => (j === i ? { ...c, ...change } : c)) });
                return (
                  <div key={i} className="flex flex-wrap items-center gap-2">
                    <NativeSelect aria-label={`${s.conditionAttributeLabel} ${i + 1}`} value={condition.name} onChange={(e) => set({ name: e.target.value })}>
                      <option value="">{s.conditionAttributeLabel}</option>
                      {names.map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </NativeSelect>
                    <NativeSelect aria-label={`${s.conditionOpLabel} ${i + 1}`} value={condition.op} onChange={(e) => set({ op: e.target.value as TSegmentAttributeOp })}>
                      {SEGMENT_ATTRIBUTE_OPS.map((op) => (
                        <option key={op} value={op}>
                          {s.ops[op]}
                        </option>
                      ))}
                    </NativeSelect>
                    {condition.op === 'empty' ? null : (
                      <Input aria-label={`${s.conditionValueLabel} ${i + 1}`} className="w-48" value={condition.value} onChange={(e) => set({ value: e.target.value })} />
                    )}
                    <Button type="button" size="sm" variant="ghost" aria-label={`${s.removeCondition} ${i + 1}`} onClick={() => patch({ attributes: draft.attributes.filter((_, j) => j !== i) })}>
                      <X aria-hidden="true" />
                    </Button>
                  </div>
                );
              })}
              <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => patch({ attributes: [...draft.attributes, { name: names[0] ?? '', op: 'eq', value: '' }] })}>
                <Plus aria-hidden="true" />
                {s.addAttributeCondition}
              </Button>
            </fieldset>

            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-semibold">{s.activityTitle}</legend>
              {draft.activity.map((activity, i) => {
                const set = (change: Partial<typeof activity>) => patch({ activity: draft.activity.map((a, j) => (j === i ? { ...a, ...change } : a)) });
                return (
                  <div key={i} className="flex flex-wrap items-center gap-2">
                    <NativeSelect aria-label={`${s.activityKindLabel} ${i + 1}`} value={activity.kind} onChange={(e) => set({ kind: e.target.value as ActivityKind })}>
                      {ACTIVITY_KINDS.map((kind) => (
                        <option key={kind} value={kind}>
                          {s.activityKinds[kind]}
                        </option>
                      ))}
                    </NativeSelect>
                    {activity.kind === 'never_messaged' ? null : (
                      <Input
                        aria-label={activity.kind === 'replied_within_days' ? s.activityDaysLabel : s.activityCampaignLabel}
                        className="w-32"
                        inputMode="numeric"
                        value={activity.value}
                        onChange={(e) => set({ value: e.target.value.replace(/\D/g, '') })}
                      />
                    )}
                    <Button type="button" size="sm" variant="ghost" aria-label={`${s.removeCondition} ${i + 1}`} onClick={() => patch({ activity: draft.activity.filter((_, j) => j !== i) })}>
                      <X aria-hidden="true" />
                    </Button>
                  </div>
                );
              })}
              <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => patch({ activity: [...draft.activity, { kind: 'replied_within_days', value: '30' }] })}>
                <Plus aria-hidden="true" />
                {s.addActivity}
              </Button>
            </fieldset>

            <div className="grid max-w-xs gap-1.5">
              <Label htmlFor={optInId}>{s.optInLabel}</Label>
              <NativeSelect id={optInId} value={draft.optIn} onChange={(e) => patch({ optIn: e.target.value as SegmentDraft['optIn'] })}>
                <option value="">{s.optInAny}</option>
                <option value="yes">{s.optInPresent}</option>
                <option value="no">{s.optInAbsent}</option>
              </NativeSelect>
            </div>

            <div className="flex flex-wrap gap-2">
              <Button type="button" onClick={() => save.mutate()} disabled={save.isPending || name.trim() === ''}>
                <Save aria-hidden="true" />
                {s.save}
              </Button>
              {selected ? (
                <>
                  <Link to={`/user/contacts?segment=${selected.id}`} className={buttonVariants({ variant: 'outline' })}>
                    <Users aria-hidden="true" />
                    {s.viewContacts}
                  </Link>
                  <Link to={`/user/whatsapp-bulk?source=contacts&segment=${selected.id}`} className={buttonVariants({ variant: 'outline' })}>
                    <Send aria-hidden="true" />
                    {s.sendToSegment}
                  </Link>
                  <Button type="button" variant="destructive" onClick={() => setConfirming(true)}>
                    <Trash2 aria-hidden="true" />
                    {s.deleteSegment}
                  </Button>
                </>
              ) : null}
            </div>
          </CardContent>
        </Card>
      </div>
      <ConfirmDialog
        open={confirming}
        title={s.deleteSegment}
        description={fillMessage(s.deleteSegmentConfirm, { name: selected?.name ?? '' })}
        confirmLabel={s.deleteSegment}
        busy={remove.isPending}
        onConfirm={() => selected && remove.mutate(selected.id)}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}
