/*
 * The tonality analysis' neural network: a dense layer, a GRU layer and
 * another dense layer, with tanh and sigmoid from libopus' table
 * approximation, and the trained weights (mlp_tables.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Ported from libopus 1.3.1 src/mlp.h (BSD-3-Clause, Xiph.Org Foundation
 * and contributors).
 */
#ifndef CTCORE_OPUS_MLP_H
#define CTCORE_OPUS_MLP_H

#include <stdint.h>

#define CT_MLP_WEIGHTS_SCALE (1.f / 128)

#define CT_MLP_MAX_NEURONS 32

typedef struct ct_mlp_dense_layer {
    const int8_t *bias;
    const int8_t *input_weights;
    int nb_inputs;
    int nb_neurons;
    int sigmoid;
} ct_mlp_dense_layer;

typedef struct ct_mlp_gru_layer {
    const int8_t *bias;
    const int8_t *input_weights;
    const int8_t *recurrent_weights;
    int nb_inputs;
    int nb_neurons;
} ct_mlp_gru_layer;

/* src/mlp_data.c: 25 features -> 32 (tanh), GRU 32 -> 24, 24 -> 2 (sigmoid:
 * music probability, activity probability) */
extern const ct_mlp_dense_layer ct_opus_layer0;
extern const ct_mlp_gru_layer ct_opus_layer1;
extern const ct_mlp_dense_layer ct_opus_layer2;

void ct_opus_compute_dense(const ct_mlp_dense_layer *layer, float *output,
                           const float *input);

void ct_opus_compute_gru(const ct_mlp_gru_layer *gru, float *state,
                         const float *input);

#endif
