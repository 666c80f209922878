import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { fillMessage, messages } from '@shared/messages';
import { formatIndianNumber } from '@shared/money';
import { CONTACT_ATTRIBUTE_TYPES, ZDefineAttributeRequest, type TDefineAttributeRequest } from '@shared/schemas/contacts';
import { errorText, serverFieldErrors } from '../../api/errors';
import { contactKeys, contactsApi } from '../../api/contacts';
import { FormTextField } from '../../components/form/fields';
import { showServerFieldErrors, useSchemaForm } from '../../components/form/useSchemaForm';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Label } from '../../components/ui/label';
import { NativeSelect } from '../../components/ui/native-select';
import { SimpleTable } from '../../components/ui/simple-table';

const s = messages.contactScreens;

/** /user/contacts/attributes: the owner's attribute definitions, added ahead of values or removed with theirs. */
export function ContactAttributesPage() {
  const queryClient = useQueryClient();
  const typeId = useId();
  const [removing, setRemoving] = useState<string | null>(null);
  const attributes = useQuery({ queryKey: contactKeys.attributes, queryFn: contactsApi.attributes });
  const form = useSchemaForm(ZDefineAttributeRequest, { name: '', type: 'text' } as TDefineAttributeRequest);
  const define = useMutation({
    mutationFn: (input: TDefineAttributeRequest) => contactsApi.defineAttribute(input.name, input.type),
    onSuccess: (defined) => {
      toast.success(fillMessage(s.attributeDefined, { name: defined.name }));
      form.reset({ name: '', type: defined.type });
      void queryClient.invalidateQueries({ queryKey: contactKeys.attributes });
    },
    onError: (error) => {
      const fields = serverFieldErrors(error);
      if (Object.keys(fields).length > 0) showServerFieldErrors(form, fields);
      else toast.error(errorText(error, messages.common.unknownError));
    },
  });
  const remove = useMutation({
    mutationFn: (name: string) => contactsApi.removeAttribute(name),
    onSuccess: (_answer, name) => {
      toast.success(fillMessage(s.attributeRemoved, { name }));
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all });
    },
    onError: (error) => toast.error(errorText(error, messages.common.unknownError)),
  });
  const rows = attributes.data ?? [];

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link to="/user/contacts" className="inline-flex items-center gap-1 text-sm text-emerald-700 hover:underline dark:text-emerald-400">
          <ArrowLeft className="size-4" aria-hidden="true" />
          {s.back}
        </Link>
        <h2 className="mt-2 text-2xl font-bold tracking-tight">{s.attributesScreenTitle}</h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">{s.attributesIntro}</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{s.defineAttribute}</CardTitle>
          <CardDescription>{fillMessage(messages.contacts.attributeNameInvalid, { max: 64 })}</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-start" onSubmit={(e) => void form.handleSubmit((input) => define.mutate(input))(e)} noValidate>
            <FormTextField control={form.control} name="name" label={s.attributeName} autoComplete="off" />
            <div className="grid gap-1.5">
              <Label htmlFor={typeId}>{s.attributeType}</Label>
              <Controller
                control={form.control}
                name="type"
                render={({ field }) => (
                  <NativeSelect id={typeId} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur} ref={field.ref}>
                    {CONTACT_ATTRIBUTE_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {s.attributeTypes[type]}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              />
            </div>
            <Button type="submit" className="sm:mt-6" disabled={define.isPending}>
              <Plus aria-hidden="true" />
              {s.defineAttribute}
            </Button>
          </form>
        </CardContent>
      </Card>
      <Card>
        <CardContent className="pt-6">
          {rows.length === 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">{attributes.isPending ? messages.common.loading : s.noAttributesDefined}</p>
          ) : (
            <SimpleTable
              label={s.attributesScreenTitle}
              head={[s.attributeName, s.attributeType, s.attributeContacts, '']}
              rows={rows.map((a) => [
                a.name,
                s.attributeTypes[a.type],
                formatIndianNumber(a.contacts),
                <Button key="remove" size="sm" variant="ghost" aria-label={fillMessage(s.removeAttribute, { name: a.name })} onClick={() => setRemoving(a.name)}>
                  <Trash2 aria-hidden="true" />
                </Button>,
              ])}
            />
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={removing !== null}
        title={fillMessage(s.removeAttribute, { name: removing ?? '' })}
        description={fillMessage(s.removeAttributeConfirm, { name: removing ?? '' })}
        confirmLabel={fillMessage(s.removeAttribute, { name: removing ?? '' })}
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
