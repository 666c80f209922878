import { ZSendReplyRequest } from '@shared/schemas/conversations';
import { textFieldsCheckedBy } from '../components/form/useSchemaForm';

/** The replies composer's text, checked by the schema the server runs on the reply it becomes. */
export const ZReplyForm = textFieldsCheckedBy(['text'], ZSendReplyRequest);
