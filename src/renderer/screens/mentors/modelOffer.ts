/** Whether a mentor's model is still offered: shared with the engine (a copy to another tenant checks the same). */
export { modelOffer, offeredModels, type ModelOffer } from '../../../shared/resources/model-offer';
