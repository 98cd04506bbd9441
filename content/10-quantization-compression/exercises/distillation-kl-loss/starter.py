def distillation_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    """alpha * T^2 * KL(softmax(teacher / T) || softmax(student / T)), summed over classes and averaged over
    the batch, plus (1 - alpha) * cross_entropy(student_logits, labels). Returns a 0-dim tensor."""
    raise NotImplementedError("distillation_loss")
