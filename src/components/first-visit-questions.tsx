import { site } from '../content/site.ts';

/** A first-timer's questions, each opening on a tap or a key (native <details>). */
export function FirstVisitQuestions() {
  return (
    <div className="questions">
      {site.benefits.firstVisit.questions.map(({ question, answer }) => (
        <details key={question} className="question">
          <summary>{question}</summary>
          <div className="answer">
            {answer.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
