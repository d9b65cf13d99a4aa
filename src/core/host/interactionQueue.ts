// Questions to the user — trust, inputs, sampling consent, elicitation forms — are shown one at a time: a second
// quick input would otherwise replace the first, which then reads as the user cancelling it.
import { SerialQueue } from '../common/serialQueue';

export class InteractionQueue extends SerialQueue {}
