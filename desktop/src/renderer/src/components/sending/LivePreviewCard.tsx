import type { TTemplate } from '@shared/types';
import { useProtectedMediaUrl } from '../../hooks/useProtectedMediaUrl';
import { templatePreview } from '../../lib/templatePreview';
import { MessagePreview } from '../templates/MessagePreview';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

/**
 * The chosen template as the recipient will see it, with the values entered so far; an empty
 * value keeps its {{n}} visible. A picked header image replaces the template's stored one.
 */
export function LivePreviewCard({
  template,
  values,
  imageUrl = null,
  description = 'Updates as you fill in the variables.',
}: {
  template: TTemplate | null;
  values: Record<string, string>;
  imageUrl?: string | null;
  description?: string;
}) {
  const storedImage = template && template.headerType === 'image' && !imageUrl ? template.headerMediaUrl : null;
  const stored = useProtectedMediaUrl(storedImage);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Live Preview</CardTitle>
        <CardDescription>{template ? description : 'Choose a template to see the message.'}</CardDescription>
      </CardHeader>
      {template ? (
        <CardContent>
          <MessagePreview
            preview={templatePreview({ ...template, variableExamples: values })}
            media={{ src: imageUrl ?? stored.src, isLoading: !imageUrl && stored.isLoading }}
          />
        </CardContent>
      ) : null}
    </Card>
  );
}
