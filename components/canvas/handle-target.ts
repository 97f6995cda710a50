import type { ReactFlowState } from "@xyflow/react";

/** A handle's touch target on screen, in CSS px (WCAG 2.2 target size, minimum). */
export const handleTargetPx = 24;
/** Ports of one side sit this far apart at 100 % (canvas.css, `.wf-port`'s min-height). */
export const portPitchPx = 20;
/** Zoom steps of 10 %: the target is re-sized when the zoom crosses one, not on every frame of a zoom. */
const zoomStep = Math.log(1.1);

export const selectZoomStep = (state: ReactFlowState) => Math.floor(Math.log(state.transform[2]) / zoomStep);

/** The handle's side in canvas px at a zoom step: 24 px on screen at the step's lowest zoom. */
export function handleTargetAt(step: number): number {
  return Math.ceil(handleTargetPx / Math.exp(step * zoomStep));
}

/**
 * At this zoom step the targets of neighbouring ports overlap: they are
 * closer on screen than 24 px. Ports of a side with more than one are then
 * left out of the Tab order (axe's target-size, WCAG 2.5.8): a pointer still
 * drags from them, and the inspector's Connect form is their equal.
 */
export const selectPortsCrowded = (state: ReactFlowState) => handleTargetAt(selectZoomStep(state)) > portPitchPx;
