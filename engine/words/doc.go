// Package words trains elliptical word embeddings skipgram-style, as in
// section 5 of the paper (docs/words.md): every vocabulary word has an
// input measure mu_w and a context measure nu_w, each a mean and a scale
// L L^T + eps I in factor form, trained on the pseudo dot product
// [mu : nu] = <a, b> + tr (A^{1/2} B A^{1/2})^{1/2} with the paper's hinge
// loss
//
//	[M - [mu_w : nu_c] + (1/n) sum_{c'} [mu_w : nu_c']]_+
//
// and Adagrad, or with a hinge per negative or word2vec's logistic loss,
// SGD and a linearly decaying learning rate (Config). It also holds the evaluation measures of the word
// benchmarks (Spearman correlation, average precision, best-threshold F1).
//
// The package knows nothing of files: corpora arrive as token ids and the
// vocabulary as words with counts (package datasets reads and writes them).
package words
